// Property-based tests over generated scenarios (rapidcheck). The budget is
// rapidcheck's max_success, set per test in properties/CMakeLists.txt
// through RC_PARAMS; a failure prints rapidcheck's reproduce string.
#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/scenario_cost.h"
#include "model/scenario_limits.h"
#include "properties/rapidcheck_choices.h"
#include "properties/scenario_generator.h"
#include "sim/run/runner.h"
#include "sim/scenario/scenario_writer.h"
#include "sim/scenario/scenario_parser.h"

namespace durasim {
namespace {

std::string Explain(const RunReport& report) {
  std::string text = std::string(NameOf(report.verdict)) + " " + report.error;
  for (const Violation& v : report.violations) text += "\n[" + std::string(NameOf(v.invariant)) + "] " + v.message;
  return text;
}

// Strategy: any generated scenario (any swarm, any fault schedule) run with
// the production store and runtime keeps every invariant and finishes.
RC_GTEST_PROP(GeneratedScenarios, ProductionCodeKeepsEveryInvariant, ()) {
  RapidcheckChoices choices;
  const Swarm swarm = DrawSwarm(choices);
  const Scenario scenario = GenerateScenario(choices, swarm);
  const RunReport report = RunScenario(scenario, RunOptions{});
  if (report.verdict != Verdict::kPass) RC_FAIL(Explain(report));
}

// Strategy: a generated scenario written as YAML parses back and runs to the
// same trace hash, so a written failure reproduces the run that found it.
RC_GTEST_PROP(GeneratedScenarios, WrittenFileReproducesTheRun, ()) {
  RapidcheckChoices choices;
  const Scenario scenario = GenerateScenario(choices, DrawSwarm(choices));
  const std::string yaml = WriteScenarioYaml(scenario, {"generated"});
  Result<Scenario> parsed = ParseScenario(yaml, "generated.yaml");
  RC_ASSERT(parsed.ok());
  const RunReport direct = RunScenario(scenario, RunOptions{});
  const RunReport reread = RunScenario(*parsed, RunOptions{});
  RC_ASSERT(direct.trace_hash == reread.trace_hash);
  RC_ASSERT(direct.verdict == reread.verdict);
}

// Strategy: the same explore seed always gives the same scenario and trace.
TEST(GeneratedScenarios, SeedDeterminesTheRun) {
  for (uint64_t seed : {1u, 7u, 42u, 1000u}) {
    const Generated first = GenerateFromSeed(seed);
    const Generated second = GenerateFromSeed(seed);
    EXPECT_EQ(WriteScenarioYaml(first.scenario, {}), WriteScenarioYaml(second.scenario, {}));
    EXPECT_EQ(first.swarm.Describe(), second.swarm.Describe());
    EXPECT_EQ(RunScenario(first.scenario, RunOptions{}).trace_hash,
              RunScenario(second.scenario, RunOptions{}).trace_hash);
  }
}

// Strategy: the generator never draws past a limit of the file format
// (model/scenario_limits.h): every scenario of explore seeds 1..3000,
// written as YAML, parses, and its work estimate is far below the limit.
TEST(GeneratedScenarios, ExploreSeedsStayWithinTheLimits) {
  int64_t work_max = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    const Scenario scenario = GenerateFromSeed(seed).scenario;
    Result<Scenario> parsed = ParseScenario(WriteScenarioYaml(scenario, {"generated"}), "generated.yaml");
    ASSERT_TRUE(parsed.ok()) << "seed " << seed << ": " << parsed.status().ToString();
    work_max = std::max(work_max, CostOf(*parsed).work_units);
  }
  // 371,044 at seeds 1..3000 since the aimed points of issue 32 (an
  // attempt that crashes with a call in flight, a cleanup chain, a
  // checkpoint mid-run: more steps and attempts); 250,646 with the boosted
  // draws before them, 100,028 before those.
  EXPECT_LT(work_max, limits::kWorkUnitsMax / 2);
}

// Strategy: different seeds give different scenarios (the generator is not
// stuck on one output).
TEST(GeneratedScenarios, SeedsDiffer) {
  EXPECT_NE(WriteScenarioYaml(GenerateFromSeed(1).scenario, {}), WriteScenarioYaml(GenerateFromSeed(2).scenario, {}));
}

// Strategy: every generated scenario ends with a healed attempt that
// restores the latest checkpoint and reads every input; besides the read it
// holds at most a record from outside the run (DrawBlame), never a fault.
TEST(GeneratedScenarios, LastAttemptIsHealed) {
  int with_foreign = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Scenario scenario = GenerateFromSeed(seed).scenario;
    ASSERT_GE(scenario.attempts.size(), 2u);
    const AttemptSpec& healed = scenario.attempts.back();
    ASSERT_TRUE(healed.restore.has_value());
    EXPECT_EQ(*healed.restore, kRestoreLatest);
    std::vector<AttemptStep> reads;
    for (const AttemptStep& step : healed.steps) {
      if (step.kind == AttemptStep::Kind::kForeign) {
        ++with_foreign;
        continue;
      }
      reads.push_back(step);
    }
    ASSERT_EQ(reads.size(), 1u) << "seed " << seed;
    EXPECT_EQ(reads[0].kind, AttemptStep::Kind::kRead);
    EXPECT_EQ(reads[0].count, -1);
    EXPECT_LE(healed.steps.size(), 2u) << "seed " << seed;
  }
  EXPECT_GT(with_foreign, 0);  // the gate opens on some of these seeds
}

}  // namespace
}  // namespace durasim
