// Tests of the run context a failed check prints.
// Strategy: DescribeRun's lines for a file, a generated seed, a mutant (the
// file's own or an override) and a backend; then a scenario that breaks an
// internal invariant (an action calling a supplier nobody declared, which
// the parser would reject) dies naming the run, the command that reproduces
// it and the simulated time.
#include "sim/run/run_context.h"

#include <gtest/gtest.h>

#include "properties/scenario_generator.h"
#include "sim/run/runner.h"
#include "sim/scenario/scenario_parser.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

Scenario FromFile(const std::string& path) {
  Scenario scenario;
  scenario.path = path;
  scenario.name = "crash";
  scenario.seed = 7;
  return scenario;
}

TEST(RunContext, AFileIsRerunFromTheFile) {
  // Strategy: a scenario with a path is reproduced by `run` on that path.
  EXPECT_EQ(DescribeRun(FromFile("scenarios/fast/crash.yaml"), RunOptions{}),
            "run: scenario scenarios/fast/crash.yaml, seed 7\nreproduce: build/durasim run scenarios/fast/crash.yaml");
}

TEST(RunContext, AFileNamesItsMutantAndAnOverrideIsAFlag) {
  // Strategy: the file's own mutant needs no flag; an override and the backend are flags.
  Scenario scenario = FromFile("negative/legacy.yaml");
  scenario.mutant = "legacy-end-offset-marker";
  EXPECT_EQ(DescribeRun(scenario, RunOptions{}),
            "run: scenario negative/legacy.yaml, seed 7, mutant legacy-end-offset-marker\n"
            "reproduce: build/durasim run negative/legacy.yaml");
  RunOptions options;
  options.mutant = "canary";
  options.backend = BackendKind::kMock;
  options.compare_model = true;
  EXPECT_EQ(DescribeRun(scenario, options),
            "run: scenario negative/legacy.yaml, seed 7, mutant canary, backend mock\n"
            "reproduce: build/durasim run --mutant canary --backend mock --compare-model negative/legacy.yaml");
}

TEST(RunContext, APerturbedScheduleIsRerunWithItsPerturbSeed) {
  // Strategy: a run on a perturbed schedule names its perturb seed and
  // reproduces with --perturb-seed (right whether the file or the flag set it).
  Scenario scenario = FromFile("scenarios/fast/crash.yaml");
  scenario.perturb_seed = 12345;
  EXPECT_EQ(DescribeRun(scenario, RunOptions{}),
            "run: scenario scenarios/fast/crash.yaml, seed 7, perturb seed 12345\n"
            "reproduce: build/durasim run --perturb-seed 12345 scenarios/fast/crash.yaml");
}

TEST(RunContext, AGeneratedScenarioIsReplayedFromItsSeed) {
  // Strategy: a scenario without a path is reproduced by `replay --seed`.
  RunOptions options;
  options.mutant = "legacy-end-offset-marker";
  EXPECT_EQ(DescribeRun(GenerateFromSeed(118).scenario, options),
            "run: generated scenario seed_118, seed 118, mutant legacy-end-offset-marker\n"
            "reproduce: build/durasim replay --seed 118 --mutant legacy-end-offset-marker");
}

TEST(RunContextDeathTest, AFailedCheckNamesTheRunAndTheSimulatedTime) {
  // Strategy: an undeclared supplier (the parser would refuse it) breaks Suppliers::Find.
  Result<Scenario> loaded =
      LoadScenarioFile(SourceTree() + "/scenarios/regressions/kafka_queued_action_reuse.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Scenario scenario = *loaded;
  scenario.path = "scenarios/regressions/kafka_queued_action_reuse.yaml";
  for (ActionSpec& action : scenario.actions) {
    for (ActionStep& step : action.steps) {
      if (step.kind == ActionStep::Kind::kCall) step.name = "undeclared";
    }
  }
  EXPECT_DEATH(RunScenario(scenario, RunOptions{}),
               "(^|\n)model/suppliers.cc:[0-9]+: check failed: it != specs_.end\\(\\) no supplier named undeclared\n"
               "  run: scenario scenarios/regressions/kafka_queued_action_reuse.yaml, seed 1\n"
               "  reproduce: build/durasim run scenarios/regressions/kafka_queued_action_reuse.yaml\n"
               "  simulated time: [0-9]+\\.[0-9]{3}ms\n");
}

}  // namespace
}  // namespace durasim
