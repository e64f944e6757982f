// Unit tests for the store comparison: the shapes keep scenarios runnable
// and as expected on every design, and the costs are read from the runs.
#include "sim/explore/store_comparison.h"

#include <gtest/gtest.h>

#include "model/store_designs.h"
#include "properties/scenario_generator.h"
#include "sim/run/runner.h"
#include "sim/scenario/scenario_writer.h"

namespace durasim {
namespace {

TEST(StoreComparisonTest, EveryShapeOfTheFirstSeedsPassesOnEveryDesign) {
  // Strategy: seeds 1..30 reshaped every way run as expected on each design
  // (the shapes keep the healed last attempt, checkpoint ids unique).
  for (WorkloadShape shape : AllOf<WorkloadShape>()) {
    for (StoreDesign design : AllOf<StoreDesign>()) {
      for (uint64_t seed = 1; seed <= 30; ++seed) {
        const Scenario scenario = Reshaped(GenerateFromSeed(seed, design).scenario, shape);
        const RunReport report = RunScenario(scenario, RunOptions{});
        EXPECT_TRUE(report.ok) << NameOf(shape) << " " << NameOf(design) << " seed " << seed << ": "
                               << (report.mismatches.empty() ? report.error : report.mismatches.front());
      }
    }
  }
}

TEST(StoreComparisonTest, EveryDesignGetsTheSameWorkload) {
  // Strategy: over seeds 1..200, the scenarios compare-stores runs on each
  // design are one scenario but for `store:` (written as YAML, the store line
  // removed), and hold nothing any design cannot run; some seeds had
  // something to leave out (tombstones, added partitions, rewrite arms).
  int fitted = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    std::optional<std::string> first;
    for (StoreDesign design : AllOf<StoreDesign>()) {
      const Scenario scenario = ComparisonScenario(seed, WorkloadShape::kGenerated, design);
      EXPECT_EQ(scenario.store, design);
      for (StoreDesign other : AllOf<StoreDesign>()) EXPECT_FALSE(NotRunnableOn(scenario, other).has_value());
      Scenario unnamed = scenario;
      unnamed.store = StoreDesign::kKafkaRewind;
      unnamed.store_named = false;
      const std::string yaml = WriteScenarioYaml(unnamed, {});
      if (!first) first = yaml;
      EXPECT_EQ(yaml, *first) << "seed " << seed << " on " << NameOf(design);
    }
    const Scenario generated = GenerateFromSeed(seed, StoreDesign::kKafkaRewrite).scenario;
    if (generated.log.tombstones || NotRunnableOn(generated, StoreDesign::kFluss)) ++fitted;
  }
  EXPECT_GT(fitted, 0);
}

TEST(StoreComparisonTest, FrequentCheckpointsAddTheirDensityAfterEveryStep) {
  // Strategy: density 2 adds two checkpoint/complete pairs after each step
  // of every attempt but the healed last one.
  const Scenario generated = GenerateFromSeed(7).scenario;
  const Scenario reshaped = Reshaped(generated, WorkloadShape::kFrequentCheckpoints, 2);
  ASSERT_EQ(reshaped.attempts.size(), generated.attempts.size());
  for (size_t a = 0; a + 1 < generated.attempts.size(); ++a) {
    EXPECT_EQ(reshaped.attempts[a].steps.size(), generated.attempts[a].steps.size() * 5);
  }
  EXPECT_EQ(reshaped.attempts.back().steps.size(), generated.attempts.back().steps.size());
}

TEST(StoreComparisonTest, CostsCountRewritesOnlyOnKafkaRewrite) {
  // Strategy: seeds 1..40 on each design: kafka-rewrite writes records at
  // its snapshots, kafka-rewind none; restores, bytes and put latencies are
  // read back from the runs.
  DesignCosts rewind, rewrite, untimed;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    RunOptions options;
    options.record_lines = true;
    untimed.Add(RunScenario(GenerateFromSeed(seed, StoreDesign::kKafkaRewind).scenario, options));
    options.time_restores = true;
    rewind.Add(RunScenario(GenerateFromSeed(seed, StoreDesign::kKafkaRewind).scenario, options));
    rewrite.Add(RunScenario(GenerateFromSeed(seed, StoreDesign::kKafkaRewrite).scenario, options));
  }
  EXPECT_EQ(rewind.snapshot_records, 0);
  EXPECT_GT(rewrite.snapshot_records, 0);
  EXPECT_EQ(rewind.not_as_expected + rewrite.not_as_expected, 0);
  EXPECT_GT(rewind.restores, 0);
  EXPECT_GT(rewind.bytes, rewind.records);  // a record is more than one byte
  EXPECT_FALSE(rewind.put_latency_us.empty());
  EXPECT_GE(rewind.PutLatencyMs(99), rewind.PutLatencyMs(50));
  // Restores are timed only when asked (RunOptions::time_restores): the
  // same runs untimed give the same restores, each at 0.
  EXPECT_EQ(untimed.restores, rewind.restores);
  EXPECT_EQ(untimed.RestoreWallMs(100), 0.0);
  EXPECT_GT(rewind.RestoreWallMs(100), 0.0);
  EXPECT_GE(rewind.RestoreWallMs(99), rewind.RestoreWallMs(50));
}

}  // namespace
}  // namespace durasim
