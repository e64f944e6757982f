// Mutator tests: the same Prng gives the same mutant; every mutation is
// drawn; the edits do what they say.
#include "sim/fuzz/mutator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace durasim {
namespace {

const std::string kSeed =
    "name: n\n"
    "suppliers:\n"
    "  - {name: llm, value: 7, latency_ms: 3}\n"
    "inputs:\n"
    "  - {key: a, value: 1}\n"
    "attempts:\n"
    "  - steps: [read: all, run]\n";

TEST(Mutator, SameSeedSameMutant) {
  const MutatorOptions options;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Prng a(seed);
    Prng b(seed);
    std::vector<Mutation> applied_a;
    std::vector<Mutation> applied_b;
    EXPECT_EQ(Mutate(kSeed, {kSeed}, a, options, applied_a), Mutate(kSeed, {kSeed}, b, options, applied_b));
    EXPECT_EQ(applied_a, applied_b);
    EXPECT_FALSE(applied_a.empty());
    EXPECT_LE(applied_a.size(), 4u);
  }
}

TEST(Mutator, EveryMutationIsDrawnAndMostChangeTheInput) {
  const MutatorOptions options;
  std::set<Mutation> drawn;
  int changed = 0;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    Prng prng(seed);
    std::vector<Mutation> applied;
    if (MutateOnce(kSeed, {kSeed}, prng, options, applied) != kSeed) ++changed;
    drawn.insert(applied.begin(), applied.end());
  }
  EXPECT_EQ(drawn.size(), static_cast<size_t>(Mutation::kTruncate) + 1);
  EXPECT_GT(changed, 1600);  // a swap of two equal values, a delete of nothing or a truncate at the end change nothing
}

// The first mutant of `kind` the seeds 1.. give.
std::string FirstOf(Mutation kind, const MutatorOptions& options = MutatorOptions()) {
  for (uint64_t seed = 1; seed <= 5000; ++seed) {
    Prng prng(seed);
    std::vector<Mutation> applied;
    std::string mutant = MutateOnce(kSeed, {kSeed}, prng, options, applied);
    if (applied.back() == kind && mutant != kSeed) return mutant;
  }
  ADD_FAILURE() << "mutation " << MutationName(kind) << " never changed the seed";
  return kSeed;
}

TEST(Mutator, BoundaryNumberReplacesANumber) {
  const std::string mutant = FirstOf(Mutation::kBoundaryNumber);
  // The mutant differs from the seed in one run of digits (and a '-').
  size_t prefix = 0;
  while (prefix < mutant.size() && prefix < kSeed.size() && mutant[prefix] == kSeed[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < mutant.size() - prefix && suffix < kSeed.size() - prefix &&
         mutant[mutant.size() - 1 - suffix] == kSeed[kSeed.size() - 1 - suffix]) {
    ++suffix;
  }
  const std::string middle = mutant.substr(prefix, mutant.size() - prefix - suffix);
  ASSERT_FALSE(middle.empty()) << mutant;
  EXPECT_EQ(middle.find_first_not_of("-0123456789"), std::string::npos) << mutant;
}

TEST(Mutator, SwapValuesExchangesTwoValues) {
  const std::string mutant = FirstOf(Mutation::kSwapValues);
  EXPECT_EQ(mutant.size(), kSeed.size());
  std::string sorted_mutant = mutant;
  std::string sorted_seed = kSeed;
  std::sort(sorted_mutant.begin(), sorted_mutant.end());
  std::sort(sorted_seed.begin(), sorted_seed.end());
  EXPECT_EQ(sorted_mutant, sorted_seed) << "a swap moves bytes, it adds none";
}

TEST(Mutator, DeepNestingNestsAtMostTheBound) {
  MutatorOptions options;
  options.max_nesting = 50;
  const std::string mutant = FirstOf(Mutation::kDeepNesting, options);
  EXPECT_GT(mutant.size(), kSeed.size());
  EXPECT_LE(std::count(mutant.begin(), mutant.end(), '['), 50 + std::count(kSeed.begin(), kSeed.end(), '['));
}

TEST(Mutator, MutantsAreCutAtTheSizeBound) {
  MutatorOptions options;
  options.max_size = 100;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Prng prng(seed);
    std::vector<Mutation> applied;
    EXPECT_LE(Mutate(kSeed, {kSeed}, prng, options, applied).size(), 100u);
  }
}

TEST(Mutator, EmptyInputIsMutatedWithoutTrouble) {
  const MutatorOptions options;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Prng prng(seed);
    std::vector<Mutation> applied;
    (void)Mutate("", {}, prng, options, applied);
  }
}

}  // namespace
}  // namespace durasim
