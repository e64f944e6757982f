// Tests of Prng: snapshots that pin the generator's output (a run's whole
// trace depends on it, so any change must be deliberate), bounds of the
// distributions, and rough uniformity over many seeded (so deterministic)
// draws.
#include "properties/prng.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace durasim {
namespace {

constexpr int kDrawsMax = 100000;

TEST(PrngTest, SnapshotSeed1) {
  // Strategy: the first 8 NextU64 outputs of seed 1, computed once from this
  // implementation (and cross-checked against an independent xoshiro256** +
  // SplitMix64 model), are hard-coded; any change to seeding or the generator
  // breaks this test and, with it, every recorded trace hash.
  constexpr std::array<uint64_t, 8> kExpected = {
      0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL, 0x92f89756082a4514ULL, 0x642e1c7bc266a3a7ULL,
      0xb27a48e29a233673ULL, 0x24c123126ffda722ULL, 0x123004ef8df510e6ULL, 0x61954dcc47b1e89dULL,
  };
  Prng prng(1);
  for (size_t i = 0; i < kExpected.size(); ++i) {
    EXPECT_EQ(prng.NextU64(), kExpected[i]) << "output " << i;
  }
}

TEST(PrngTest, SnapshotSeed42) {
  // Strategy: as SnapshotSeed1, for a second seed, so a change that happens
  // to keep one seed's stream cannot slip through.
  constexpr std::array<uint64_t, 8> kExpected = {
      0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL, 0xecb8ad4703b360a1ULL,
      0xfde6dc7fe2ec5e64ULL, 0xc50da53101795238ULL, 0xb82154855a65ddb2ULL, 0xd99a2743ebe60087ULL,
  };
  Prng prng(42);
  for (size_t i = 0; i < kExpected.size(); ++i) {
    EXPECT_EQ(prng.NextU64(), kExpected[i]) << "output " << i;
  }
}

TEST(PrngTest, SameSeedSameStreamDifferentSeedDifferentStream) {
  // Strategy: two generators with one seed agree on 1000 outputs; a generator
  // with a neighbouring seed disagrees on the first output already.
  Prng a(1234);
  Prng b(1234);
  Prng c(1235);
  const uint64_t first_a = a.NextU64();
  EXPECT_EQ(b.NextU64(), first_a);
  EXPECT_NE(c.NextU64(), first_a);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.NextU64(), b.NextU64()) << "draw " << i;
}

TEST(PrngTest, DistributionSnapshotsSeed7) {
  // Strategy: the first draws of each distribution for seed 7, computed once
  // and hard-coded, pin the mapping from raw outputs to Below, Range, Chance
  // and Weighted (a fresh generator for each, so one does not shift another).
  {
    Prng prng(7);
    const std::vector<uint64_t> expected = {4, 4, 8, 4, 4, 1, 6, 6};
    std::vector<uint64_t> got;
    for (size_t i = 0; i < expected.size(); ++i) got.push_back(prng.Below(10));
    EXPECT_EQ(got, expected);
  }
  {
    Prng prng(7);
    const std::vector<int64_t> expected = {1, -3, 5, 3, -2, -4, -4, 4};
    std::vector<int64_t> got;
    for (size_t i = 0; i < expected.size(); ++i) got.push_back(prng.Range(-5, 5));
    EXPECT_EQ(got, expected);
  }
  {
    Prng prng(7);
    const std::vector<bool> expected = {true, false, true, false, false, false,
                                        false, false, false, false, false, false};
    std::vector<bool> got;
    for (size_t i = 0; i < expected.size(); ++i) got.push_back(prng.Chance(1, 3));
    EXPECT_EQ(got, expected);
  }
  {
    Prng prng(7);
    const std::vector<size_t> expected = {3, 3, 3, 3, 3, 2, 3, 3, 3, 3, 2, 3};
    std::vector<size_t> got;
    for (size_t i = 0; i < expected.size(); ++i) got.push_back(prng.Weighted({1, 0, 3, 6}));
    EXPECT_EQ(got, expected);
  }
}

TEST(PrngTest, BelowOneIsAlwaysZero) {
  // Strategy: the only value in [0, 1) is 0, over many draws.
  Prng prng(3);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(prng.Below(1), 0u) << "draw " << i;
}

TEST(PrngTest, BoundsRespectedOverManyDraws) {
  // Strategy: many draws of Below, Range and Weighted across awkward bounds
  // (1, 2, 3, 7, a power of two, just over half the range, the top of the
  // range) never leave their range.
  Prng prng(11);
  const std::vector<uint64_t> bounds = {1, 2, 3, 7, 1024, (1ULL << 63) + 1, std::numeric_limits<uint64_t>::max()};
  for (uint64_t bound : bounds) {
    for (int i = 0; i < 10000; ++i) ASSERT_LT(prng.Below(bound), bound) << "bound " << bound;
  }
  for (int i = 0; i < 10000; ++i) {
    const int64_t value = prng.Range(-7, 12);
    ASSERT_GE(value, -7);
    ASSERT_LE(value, 12);
  }
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(prng.Range(5, 5), 5);
  for (int i = 0; i < 1000; ++i) {
    const size_t index = prng.Weighted({0, 2, 0, 5, 0});
    ASSERT_TRUE(index == 1 || index == 3) << "index " << index;
  }
}

TEST(PrngTest, FullInt64RangeReachesBothSigns) {
  // Strategy: Range over all of int64 takes the span == UINT64_MAX path; it
  // must not assert and, over 1000 draws, must give negative and positive
  // values.
  Prng prng(5);
  int negatives = 0;
  int positives = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t value = prng.Range(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    if (value < 0) ++negatives;
    if (value > 0) ++positives;
  }
  EXPECT_GT(negatives, 0);
  EXPECT_GT(positives, 0);
}

TEST(PrngTest, RangeMinusThreeToThreeHitsEveryValue) {
  // Strategy: 1000 draws of Range(-3, 3) (7 values) reach every value and
  // nothing else.
  Prng prng(9);
  std::array<int, 7> hits{};
  for (int i = 0; i < 1000; ++i) {
    const int64_t value = prng.Range(-3, 3);
    ASSERT_GE(value, -3);
    ASSERT_LE(value, 3);
    ++hits[static_cast<size_t>(value + 3)];
  }
  for (size_t i = 0; i < hits.size(); ++i) EXPECT_GT(hits[i], 0) << "value " << static_cast<int>(i) - 3;
}

TEST(PrngTest, BelowIsRoughlyUniform) {
  // Strategy: 100000 draws of Below(10); every bucket is within 5% of the
  // expected 10000 (the real spread is ~1%, so the tolerance is generous,
  // and the seed makes the outcome fixed).
  Prng prng(2024);
  std::array<int, 10> buckets{};
  for (int i = 0; i < kDrawsMax; ++i) ++buckets[prng.Below(10)];
  for (size_t i = 0; i < buckets.size(); ++i) {
    EXPECT_GT(buckets[i], 9500) << "bucket " << i;
    EXPECT_LT(buckets[i], 10500) << "bucket " << i;
  }
}

TEST(PrngTest, ChanceAndWeightedFollowTheirProportions) {
  // Strategy: Chance(1, 4) is true in about a quarter of 100000 draws;
  // Weighted({1, 0, 3, 6}) picks indices in about a 1:3:6 ratio and never
  // picks the zero-weight index. Tolerances are generous (several sigma).
  Prng prng(77);
  int trues = 0;
  for (int i = 0; i < kDrawsMax; ++i) trues += prng.Chance(1, 4) ? 1 : 0;
  EXPECT_GT(trues, 24000);
  EXPECT_LT(trues, 26000);

  std::array<int, 4> picks{};
  for (int i = 0; i < kDrawsMax; ++i) ++picks[prng.Weighted({1, 0, 3, 6})];
  EXPECT_EQ(picks[1], 0);
  EXPECT_GT(picks[0], 9000);
  EXPECT_LT(picks[0], 11000);
  EXPECT_GT(picks[2], 29000);
  EXPECT_LT(picks[2], 31000);
  EXPECT_GT(picks[3], 59000);
  EXPECT_LT(picks[3], 61000);

  // Chance(0, n) never and Chance(n, n) always.
  for (int i = 0; i < 1000; ++i) {
    ASSERT_FALSE(prng.Chance(0, 5));
    ASSERT_TRUE(prng.Chance(5, 5));
  }
}

}  // namespace
}  // namespace durasim
