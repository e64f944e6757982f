// Tests of Perturbation: the latency draws and tie ranks of a perturbed
// schedule, and the seeds `run --perturb` derives from a file's seed.
#include "model/perturbation.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "model/scenario.h"

namespace durasim {
namespace {

TEST(PerturbationTest, DrawsArePinned) {
  // Strategy: the draws of one seed are pinned, so a change to the streams
  // (which would change every perturbed trace and every written perturb
  // seed's schedule) is a deliberate one.
  Perturbation perturbation(42, 1);
  std::vector<int64_t> drawn;
  for (int i = 0; i < 8; ++i) drawn.push_back(perturbation.DrawMs(1, 20));
  EXPECT_EQ(drawn, (std::vector<int64_t>{4, 3, 4, 18, 2, 5, 18, 13}));
  EXPECT_EQ(PerturbedSeed(1, 0), 4662396569767548017u);
  EXPECT_EQ(PerturbedSeed(1, 1), 12215788993637239121u);
}

TEST(PerturbationTest, DrawsStayInTheirRangeAndCoverIt) {
  // Strategy: 2,000 draws in [3, 7] are all in range and take every value;
  // a fixed latency (no max, or max == min) is the min and draws nothing.
  Perturbation perturbation(7, 2);
  std::set<int64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const int64_t ms = perturbation.DrawMs(3, 7);
    ASSERT_GE(ms, 3);
    ASSERT_LE(ms, 7);
    seen.insert(ms);
  }
  EXPECT_EQ(seen, (std::set<int64_t>{3, 4, 5, 6, 7}));
  const uint64_t draws = perturbation.draws();
  EXPECT_EQ(perturbation.DrawMs(5, std::nullopt), 5);
  EXPECT_EQ(perturbation.DrawMs(5, 5), 5);
  EXPECT_EQ(perturbation.draws(), draws);
}

TEST(PerturbationTest, SameSeedSameDrawsOtherSeedOrAttemptOtherDraws) {
  // Strategy: two perturbations of one seed and attempt draw the same; another
  // seed or another attempt draws differently (over 16 draws in [0, 1000]).
  auto draws = [](uint64_t seed, int attempt) {
    Perturbation perturbation(seed, attempt);
    std::vector<int64_t> drawn;
    for (int i = 0; i < 16; ++i) drawn.push_back(perturbation.DrawMs(0, 1000));
    return drawn;
  };
  EXPECT_EQ(draws(5, 1), draws(5, 1));
  EXPECT_NE(draws(5, 1), draws(6, 1));
  EXPECT_NE(draws(5, 1), draws(5, 2));
}

TEST(PerturbationTest, DerivedSeedsDifferAndFollowTheFileSeed) {
  // Strategy: the 200 schedules of a file are 200 distinct perturb seeds,
  // and another file seed gives none of them.
  std::set<uint64_t> of_1;
  std::set<uint64_t> of_2;
  for (uint64_t i = 0; i < 200; ++i) {
    of_1.insert(PerturbedSeed(1, i));
    of_2.insert(PerturbedSeed(2, i));
  }
  EXPECT_EQ(of_1.size(), 200u);
  for (uint64_t seed : of_2) EXPECT_EQ(of_1.count(seed), 0u) << seed;
}

TEST(PerturbationTest, OnlyAPerturbedScenarioHasAPerturbation) {
  // Strategy: without perturb_seed there is nothing to perturb and the
  // put-latency bound is the fixed latency; with one, it is the range's max.
  Scenario scenario;
  scenario.log.ack_latency_ms = 2;
  scenario.log.ack_latency_ms_max = 9;
  EXPECT_FALSE(PerturbationOf(scenario, 1).has_value());
  EXPECT_EQ(AckLatencyMsMax(scenario), 2);
  scenario.perturb_seed = 3;
  EXPECT_TRUE(PerturbationOf(scenario, 1).has_value());
  EXPECT_EQ(AckLatencyMsMax(scenario), 9);
}

}  // namespace
}  // namespace durasim
