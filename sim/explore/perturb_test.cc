// Tests of `durasim run --perturb`: what a file's seed means under it, that
// the canonical schedule is untouched, and that a failing schedule is
// written so that it replays.
#include "sim/explore/perturb.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "model/perturbation.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/scenario/scenario_writer.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

Scenario Load(const std::string& relative) {
  Result<Scenario> scenario = LoadScenarioFile(SourceTree() + "/" + relative);
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  return scenario.ok() ? std::move(scenario).value() : Scenario{};
}

uint64_t TraceHash(const Scenario& scenario, const RunOptions& options = {}) {
  const RunReport report = RunScenario(scenario, options);
  EXPECT_TRUE(report.ok) << scenario.path << ": " << report.error;
  return report.trace_hash;
}

TEST(PerturbTest, RangesAndPerturbSeedSurviveTheWriter) {
  // Strategy: latency ranges and perturb_seed parse into their fields, a
  // fixed latency has no max, and the writer's YAML parses back to the same
  // fields (the shrinker and the failure files go through it).
  const std::string yaml = R"(name: ranges
seed: 7
perturb_seed: 18446744073709551615
log: {linger_ms: {min: 2, max: 9}, ack_latency_ms: {min: 1, max: 1}}
suppliers:
  - {name: slow, latency_ms: {min: 5, max: 40}}
  - {name: fixed, latency_ms: 3}
actions: [{name: a, on: input, steps: [{call: slow}, {call: fixed}, output]}]
inputs: [{key: k, value: 1}]
attempts: [{steps: [{read: all}, run]}]
)";
  auto check = [](const std::string& text) {
    Result<Scenario> parsed = ParseScenario(text, "ranges.yaml");
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    if (!parsed.ok()) return std::string();
    EXPECT_EQ(parsed->perturb_seed, std::optional<uint64_t>(18446744073709551615u));
    EXPECT_EQ(parsed->log.linger_ms, 2);
    EXPECT_EQ(parsed->log.linger_ms_max, std::optional<int64_t>(9));
    EXPECT_EQ(parsed->log.ack_latency_ms_max, std::optional<int64_t>(1));
    EXPECT_EQ(parsed->suppliers[0].latency_ms, 5);
    EXPECT_EQ(parsed->suppliers[0].latency_ms_max, std::optional<int64_t>(40));
    EXPECT_EQ(parsed->suppliers[1].latency_ms, 3);
    EXPECT_FALSE(parsed->suppliers[1].latency_ms_max.has_value());
    return WriteScenarioYaml(*parsed, {});
  };
  const std::string written = check(yaml);
  EXPECT_EQ(check(written), written);
}

TEST(PerturbTest, SeedChangesTheTraceOnlyUnderPerturb) {
  // Strategy: seeds 1, 2 and 999 of one file give one trace without
  // --perturb (the canonical schedule does not read the seed) and three
  // different traces under --perturb (schedule 0 of each seed), each
  // keeping the file's expectation.
  Scenario scenario = Load("scenarios/fast/broker_down_then_up.yaml");
  std::set<uint64_t> canonical;
  std::set<uint64_t> perturbed;
  for (uint64_t seed : {1u, 2u, 999u}) {
    scenario.seed = seed;
    scenario.perturb_seed.reset();
    canonical.insert(TraceHash(scenario));
    scenario.perturb_seed = PerturbedSeed(seed, 0);
    perturbed.insert(TraceHash(scenario));
  }
  EXPECT_EQ(canonical.size(), 1u);
  EXPECT_EQ(perturbed.size(), 3u);
  EXPECT_EQ(perturbed.count(*canonical.begin()), 0u);
}

TEST(PerturbTest, SameSchedulesSameTraces) {
  // Strategy: the 20 schedules of a file give the same trace hashes on a
  // second run, whatever the number of worker threads.
  const Scenario scenario = Load("scenarios/fast/tombstones_with_subtasks.yaml");
  PerturbOptions one;
  one.schedules = 20;
  PerturbOptions two = one;
  two.jobs = 2;
  const std::vector<PerturbedFile> a = RunPerturbed({scenario}, RunOptions{}, one);
  const std::vector<PerturbedFile> b = RunPerturbed({scenario}, RunOptions{}, two);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_TRUE(a[0].failures.empty());
  EXPECT_EQ(a[0].trace_hashes, b[0].trace_hashes);
  EXPECT_GT(a[0].distinct_traces, 1);
}

TEST(PerturbTest, NegativeFileIsCaughtOnlyOnItsSchedule) {
  // Strategy: the negative file's perturbed schedule shows `once` under
  // legacy-end-offset-marker; the same file on the canonical schedule does
  // not catch the mutant.
  Scenario scenario = Load("scenarios/negative/legacy_end_offset_marker_perturbed.yaml");
  ASSERT_TRUE(scenario.perturb_seed.has_value());
  const RunReport perturbed = RunScenario(scenario, RunOptions{});
  EXPECT_TRUE(perturbed.ok) << perturbed.error;
  EXPECT_TRUE(Shows(perturbed, ExpectedVerdict::Violated(Invariant::kOnce)));
  scenario.perturb_seed.reset();
  const RunReport canonical = RunScenario(scenario, RunOptions{});
  EXPECT_EQ(canonical.verdict, Verdict::kPass);
}

TEST(PerturbTest, AFailingScheduleIsWrittenAndReplays) {
  // Strategy: under legacy-end-offset-marker the fast file passes on the
  // canonical schedule, but some of 8 perturbed schedules fail; the first
  // is written (shrunk) under the failures folder, and running that file
  // shows the violation again.
  const Scenario scenario = Load("scenarios/fast/second_async_call_races_the_crash.yaml");
  RunOptions options;
  options.mutant = "legacy-end-offset-marker";
  EXPECT_TRUE(RunScenario(scenario, options).ok);
  PerturbOptions perturb;
  perturb.schedules = 8;
  perturb.written_max = 1;
  perturb.shrink_budget_s = 2;
  perturb.failures_dir = ::testing::TempDir() + "/perturb_failures";
  const std::vector<PerturbedFile> files = RunPerturbed({scenario}, options, perturb);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_FALSE(files[0].failures.empty());
  const PerturbedFailure& first = files[0].failures.front();
  EXPECT_EQ(first.perturb_seed, PerturbedSeed(scenario.seed, static_cast<uint64_t>(first.index)));
  ASSERT_FALSE(first.written.empty());
  Result<Scenario> written = LoadScenarioFile(first.written);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->perturb_seed, first.perturb_seed);
  const RunReport replayed = RunScenario(*written, options);
  EXPECT_TRUE(replayed.ok) << replayed.error;
  EXPECT_TRUE(Shows(replayed, ExpectedVerdict::Violated(Invariant::kOnce)));
  std::filesystem::remove_all(perturb.failures_dir);
}

// Strategy: two files of one run with the same stem (fast/x, regressions/x)
// would write the same perturb_<stem>_<seed>.yaml; their names are made
// from their paths instead, and a stem used once stays as it was.
TEST(PerturbTest, FailureFileNamesNeverCollide) {
  auto at = [](const std::string& path) {
    Scenario scenario;
    scenario.path = path;
    scenario.name = "n";
    return scenario;
  };
  const std::vector<std::string> names =
      FailureFileNames({at("scenarios/fast/x.yaml"), at("scenarios/regressions/x.yaml"), at("scenarios/fast/y.yaml")});
  EXPECT_EQ(names, (std::vector<std::string>{"scenarios_fast_x", "scenarios_regressions_x", "y"}));
  EXPECT_EQ(FailureFileNames({at("")}), std::vector<std::string>{"n"});
}

}  // namespace
}  // namespace durasim
