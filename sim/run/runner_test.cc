// Tests of the runner: the seed regression end to end, with and without the
// legacy-end-offset-marker mutant, and how expectations are judged.
#include "sim/run/runner.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/ranges.h>

#include "model/scenario.h"
#include "model/scenario_cost.h"
#include "sim/scenario/scenario_parser.h"
#include "store/format.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

Scenario LoadSeed() {
  Result<Scenario> scenario =
      LoadScenarioFile(SourceTree() + "/scenarios/regressions/kafka_queued_action_reuse.yaml");
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  return scenario.value();
}

bool HasViolation(const RunReport& report, Invariant invariant) {
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.invariant == invariant; });
}

// Strategy: the fixed store reuses the saved result: one supplier call, 70.
TEST(RunnerTest, SeedRegressionPassesWithTheFixedStore) {
  const RunReport report = RunScenario(LoadSeed(), RunOptions{});
  EXPECT_EQ(report.verdict, Verdict::kPass);
  EXPECT_TRUE(report.ok);
  EXPECT_EQ(report.supplier_calls, 1);
  EXPECT_EQ(report.outputs, std::vector<int64_t>{70});
  EXPECT_TRUE(report.violations.empty());
}

// Strategy: the pre-fix marker makes the last restore miss the saved result:
// the supplier runs twice, the output is still 70, and only `once` sees it,
// naming the repeated call.
TEST(RunnerTest, LegacyMarkerMutantIsCaughtByOnce) {
  RunOptions options;
  options.mutant = "legacy-end-offset-marker";
  const RunReport report = RunScenario(LoadSeed(), options);
  EXPECT_EQ(report.verdict, Verdict::kViolation);
  EXPECT_FALSE(report.ok);  // the file expects pass
  EXPECT_EQ(report.supplier_calls, 2);
  EXPECT_EQ(report.outputs, std::vector<int64_t>{70});
  ASSERT_TRUE(HasViolation(report, Invariant::kOnce));
  EXPECT_FALSE(HasViolation(report, Invariant::kSameAnswer));
  const std::string& message = report.violations.front().message;
  EXPECT_NE(message.find("fn=llm"), std::string::npos) << message;
  EXPECT_NE(message.find("supplier.call"), std::string::npos) << message;
}

// Strategy: a run is deterministic: two runs give the same trace hash, and
// the trace is not empty.
TEST(RunnerTest, SameScenarioSameTraceHash) {
  const Scenario scenario = LoadSeed();
  const RunReport first = RunScenario(scenario, RunOptions{});
  const RunReport second = RunScenario(scenario, RunOptions{});
  EXPECT_FALSE(first.trace.empty());
  EXPECT_EQ(first.trace_hash, second.trace_hash);
  EXPECT_EQ(first.trace.lines(), second.trace.lines());
}

// Strategy: on the model a run is explained (its causes found) only when it
// found a violation, by running it again; the report of that lazy path must
// equal one explained from the start (record_lines asks for it): the same
// messages with their cause lines, evidence, trace and record lines.
TEST(RunnerTest, ALazilyExplainedViolationEqualsAnEagerlyExplainedOne) {
  RunOptions lazy;
  lazy.mutant = "legacy-end-offset-marker";
  RunOptions eager = lazy;
  eager.record_lines = true;
  const RunReport lazily = RunScenario(LoadSeed(), lazy);
  const RunReport eagerly = RunScenario(LoadSeed(), eager);
  ASSERT_EQ(lazily.verdict, Verdict::kViolation);
  ASSERT_EQ(lazily.violations.size(), eagerly.violations.size());
  for (size_t i = 0; i < lazily.violations.size(); ++i) {
    EXPECT_EQ(lazily.violations[i].invariant, eagerly.violations[i].invariant);
    EXPECT_EQ(lazily.violations[i].message, eagerly.violations[i].message);
    EXPECT_EQ(lazily.violations[i].evidence, eagerly.violations[i].evidence);
  }
  EXPECT_FALSE(lazily.violations.front().evidence.empty());
  const std::string& message = lazily.violations.front().message;
  EXPECT_NE(message.find("cause: attempt 3 restored cp2"), std::string::npos) << message;
  EXPECT_EQ(lazily.trace_hash, eagerly.trace_hash);
  EXPECT_EQ(lazily.trace.lines(), eagerly.trace.lines());
  EXPECT_FALSE(lazily.record_lines.empty());
  EXPECT_EQ(lazily.record_lines.size(), eagerly.record_lines.size());
  EXPECT_EQ(lazily.supplier_calls, eagerly.supplier_calls);
  EXPECT_EQ(lazily.fault_hits, eagerly.fault_hits);
}

// Strategy: a passing model run keeps no record lines (they only serve the
// readable trace) unless RunOptions::record_lines asks for them; asking does
// not change the trace.
TEST(RunnerTest, APassingRunKeepsRecordLinesOnlyWhenAsked) {
  RunOptions asked;
  asked.record_lines = true;
  const RunReport plain = RunScenario(LoadSeed(), RunOptions{});
  const RunReport with_lines = RunScenario(LoadSeed(), asked);
  ASSERT_EQ(plain.verdict, Verdict::kPass);
  EXPECT_TRUE(plain.record_lines.empty());
  EXPECT_FALSE(with_lines.record_lines.empty());
  EXPECT_EQ(plain.trace_hash, with_lines.trace_hash);
}

// Strategy: expectations are judged: wrong outputs and call counts make the
// run not ok, with a reason for each.
TEST(RunnerTest, ExpectationMismatchesAreReported) {
  Scenario scenario = LoadSeed();
  scenario.expect.outputs = std::vector<int64_t>{71};
  scenario.expect.supplier_calls = 3;
  const RunReport report = RunScenario(scenario, RunOptions{});
  EXPECT_EQ(report.verdict, Verdict::kPass);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.mismatches.size(), 2u);
}

// Strategy: an unknown mutant is an error verdict, not a crash.
TEST(RunnerTest, UnknownMutantIsAnError) {
  RunOptions options;
  options.mutant = "no-such-mutant";
  const RunReport report = RunScenario(LoadSeed(), options);
  EXPECT_EQ(report.verdict, Verdict::kError);
  EXPECT_NE(report.error.find("no-such-mutant"), std::string::npos);
}

// A one-action scenario: two inputs, the given attempts and expect blocks.
Scenario TwoInputs(const std::string& attempts_and_expect) {
  Result<Scenario> scenario = ParseScenario(R"(name: two_inputs
suppliers:
  - {name: llm, scale: 10}
actions:
  - name: ask
    on: input
    steps:
      - call: llm
      - output
inputs:
  - {key: a, value: 1}
  - {key: b, value: 2}
)" + attempts_and_expect,
                                            "two.yaml");
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  return scenario.value();
}

// Strategy: a last attempt that never reads input 1 used to pass with that
// output missing; now it is a liveness violation naming the input, and
// passes only when the expectation lists it.
TEST(RunnerTest, AnUnfinishedInputIsALivenessViolationUnlessExpected) {
  const std::string attempts = "attempts:\n  - steps:\n      - read: 1\nexpect:\n  outputs: [10]\n";
  const RunReport silent = RunScenario(TwoInputs(attempts), RunOptions{});
  EXPECT_EQ(silent.verdict, Verdict::kViolation);
  ASSERT_TRUE(HasViolation(silent, Invariant::kLiveness));
  EXPECT_NE(silent.violations.front().message.find("input 1 (key \"b\", line 12) unfinished"), std::string::npos)
      << silent.violations.front().message;
  EXPECT_EQ(silent.unfinished_inputs, std::vector<int64_t>{1});
  const RunReport declared = RunScenario(TwoInputs(attempts + "  unfinished: [1]\n"), RunOptions{});
  EXPECT_EQ(declared.verdict, Verdict::kPass);
  EXPECT_TRUE(declared.ok);
}

// Strategy: an armed fault whose nth is never reached used to pass silently;
// now the run is an error naming the fault and where it was armed, the
// report says it never fired, and `allow_unfired` accepts it.
TEST(RunnerTest, AnArmedFaultThatNeverFiresIsAnErrorUnlessAllowed) {
  const std::string attempts =
      "attempts:\n  - steps:\n      - arm: {fault: reject_put, nth: 50}\n      - read: all\nexpect:\n  outputs: [10, 20]\n";
  const RunReport silent = RunScenario(TwoInputs(attempts), RunOptions{});
  EXPECT_EQ(silent.verdict, Verdict::kError);
  EXPECT_NE(silent.error.find("two.yaml:15:9: reject_put nth=50 armed in attempt 1 never fired"), std::string::npos)
      << silent.error;
  ASSERT_EQ(silent.armed_faults.size(), 1u);
  EXPECT_FALSE(silent.armed_faults[0].fired_at.has_value());
  const RunReport allowed = RunScenario(TwoInputs(attempts + "  allow_unfired: true\n"), RunOptions{});
  EXPECT_EQ(allowed.verdict, Verdict::kPass);
  const RunReport fires = RunScenario(
      TwoInputs("attempts:\n  - steps:\n      - checkpoint: cp0\n      - complete: cp0\n"
                "      - arm: {fault: crash_after_put_persisted, nth: 1}\n      - read: all\n"
                "  - restore: latest\n    steps:\n      - read: all\nexpect:\n  outputs: [10, 20]\n"),
      RunOptions{});
  EXPECT_EQ(fires.verdict, Verdict::kPass);
  ASSERT_EQ(fires.armed_faults.size(), 1u);
  EXPECT_TRUE(fires.armed_faults[0].fired_at.has_value());
  EXPECT_EQ(fires.armed_faults[0].hit.put, PutPoint::kStart);
}

// Strategy: a deployed plan that answers differently without faults leaves
// same-answer nothing to compare with: the run is an error naming the plan's
// attempt, where it is in the file and the first difference, not a verdict.
TEST(RunnerTest, PlanThatChangesTheAnswerIsAnError) {
  Result<Scenario> scenario = ParseScenario(R"(name: plan_changes_answer
suppliers:
  - {name: llm, scale: 10}
  - {name: llm_v2, scale: 20}
actions:
  - name: ask
    on: input
    steps:
      - call: llm
      - output
inputs:
  - {key: a, value: 1}
attempts:
  - steps:
      - read: all
  - plan:
      actions:
        - name: ask
          on: input
          steps:
            - call: llm_v2
            - output
    steps:
      - read: all
)",
                                            "plan.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status().ToString();
  const RunReport report = RunScenario(*scenario, RunOptions{});
  EXPECT_EQ(report.verdict, Verdict::kError);
  EXPECT_NE(report.error.find("plan.yaml:17:7: the plan of attempt 2 answers differently"), std::string::npos)
      << report.error;
  EXPECT_NE(report.error.find("output 0 of input 0 is 10 under the scenario's plan, 20 under this one"), std::string::npos) << report.error;
}

// Strategy: a broker outage of 30 minutes with an hour's delivery timeout
// lies inside the documented ranges, so the run meets no hidden bound: the
// attempt's simulated-time bound grows with its script (AttemptTimeNeeded)
// and the run passes (with the fixed 10-minute bound it ended stuck).
TEST(RunnerTest, AnOutageInsideTheDocumentedRangesIsNotStuck) {
  Scenario scenario = LoadSeed();
  scenario.log.delivery_timeout_ms = 1000 * 60 * 60;  // retry for an hour
  AttemptSpec attempt;
  AttemptStep down;
  down.kind = AttemptStep::Kind::kBrokerDown;
  down.duration_ms = 1000 * 60 * 30;  // 30 minutes: once beyond the fixed 10-minute bound, which made it stuck
  AttemptStep read;
  read.kind = AttemptStep::Kind::kRead;
  read.count = -1;
  attempt.steps = {down, read};
  scenario.attempts = {attempt};
  scenario.expect = Expectation{};
  const RunReport report = RunScenario(scenario, RunOptions{});
  EXPECT_EQ(report.verdict, Verdict::kPass) << (report.violations.empty() ? report.error : report.violations[0].message);
  EXPECT_TRUE(report.ok);
  EXPECT_GE(AttemptTimeNeeded(scenario, 1), std::chrono::minutes(30));
}

// Strategy: a corrupt step naming a record the log does not hold ends the
// run in error, naming the position, on the model and on the mock cluster
// (where the harness reads the real log to know).
TEST(RunnerTest, CorruptStepWithoutSuchRecordIsAnErrorOnEveryBackend) {
  Result<Scenario> scenario = ParseScenario(R"(name: corrupt_missing
suppliers:
  - {name: llm}
actions:
  - {name: ask, on: [input], steps: [{call: llm}, output]}
inputs:
  - {key: a, value: 1}
attempts:
  - steps:
      - read: all
      - run
      - corrupt: {partition: 0, offset: 99}
)",
                                            "corrupt_missing.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status().ToString();
  for (BackendKind backend : {BackendKind::kModel, BackendKind::kMock}) {
    RunOptions options;
    options.backend = backend;
    const RunReport report = RunScenario(*scenario, options);
    EXPECT_EQ(report.verdict, Verdict::kError) << NameOf(backend);
    EXPECT_NE(report.error.find("corrupt: no record at partition 0 offset 99"), std::string::npos)
        << NameOf(backend) << ": " << report.error;
  }
}

// Strategy: a foreign record into a partition that an add_partitions step
// would have added, had its attempt not crashed first, is an error naming
// the partition, not a failed check (explore seed 7775 drew one and aborted
// the harness).
TEST(RunnerTest, ForeignRecordIntoAPartitionNotAddedYetIsAnError) {
  Result<Scenario> scenario = ParseScenario(R"(name: foreign_too_early
suppliers:
  - {name: llm}
actions:
  - {name: ask, on: [input], steps: [{call: llm}, output]}
inputs:
  - {key: a, value: 1}
attempts:
  - steps:
      - read: all
      - run
      - crash
      - add_partitions: 2   # never reached: the attempt crashed
  - steps:
      - foreign: {partition: 2, key: outside, tombstone: true}
      - read: all
      - run
)",
                                            "foreign_too_early.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status().ToString();
  for (BackendKind backend : {BackendKind::kModel, BackendKind::kMock}) {
    RunOptions options;
    options.backend = backend;
    const RunReport report = RunScenario(*scenario, options);
    EXPECT_EQ(report.verdict, Verdict::kError) << NameOf(backend);
    EXPECT_NE(report.error.find("foreign: partition 2 does not exist yet (the topic has 1 partitions at this step)"),
              std::string::npos)
        << NameOf(backend) << ": " << report.error;
  }
}

Scenario LoadFile(const std::string& relative) {
  Result<Scenario> scenario = LoadScenarioFile(SourceTree() + "/scenarios/" + relative);
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  return scenario.value();
}

// Strategy: a foreign tombstone that the restore reads makes the store reject
// the recovery data; the run is an error naming the record's partition,
// offset and key, not an invalid-recovery violation blamed on the store, on the model and on
// the mock cluster alike (compare_model: the same story). Without the
// foreign step the same script passes.
TEST(RunnerTest, AForeignRecordReadByARestoreIsAnErrorNamingIt) {
  Scenario scenario = LoadFile("fast/foreign_tombstone_read_by_restore.yaml");
  for (BackendKind backend : {BackendKind::kModel, BackendKind::kMock}) {
    RunOptions options;
    options.backend = backend;
    options.compare_model = backend != BackendKind::kModel;
    const RunReport report = RunScenario(scenario, options);
    EXPECT_EQ(report.verdict, Verdict::kError) << NameOf(backend);
    EXPECT_TRUE(report.ok) << NameOf(backend) << ": " << report.error;
    EXPECT_NE(report.error.find("a record the run did not write at partition 0 offset 4 (key \"a_1_"),
              std::string::npos)
        << NameOf(backend) << ": " << report.error;
    EXPECT_NE(report.error.find("(invalid-recovery: rebuild rejected valid recovery data"), std::string::npos)
        << report.error;
    EXPECT_FALSE(HasViolation(report, Invariant::kDifferential)) << NameOf(backend);
  }
  std::vector<AttemptStep>& steps = scenario.attempts[0].steps;
  std::erase_if(steps, [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kForeign; });
  scenario.expect.verdict = ExpectedVerdict::Pass();
  const RunReport clean = RunScenario(scenario, RunOptions{});
  EXPECT_EQ(clean.verdict, Verdict::kPass) << clean.error;
  EXPECT_EQ(clean.supplier_calls, 1);
}

// Strategy: a fresh start after earlier attempts is a new lineage: its
// repeated calls are no `once`/`finished` (4 supplier calls, pass); the
// mutant whose fresh start reads the old job's states is `provenance`; on
// the mock cluster both tell the model's story.
TEST(RunnerTest, AFreshStartIsANewLineage) {
  const Scenario scenario = LoadFile("fast/fresh_start_redoes_calls.yaml");
  RunOptions options;
  options.backend = BackendKind::kMock;
  options.compare_model = true;
  RunReport report = RunScenario(scenario, options);
  EXPECT_EQ(report.verdict, Verdict::kPass) << report.error;
  EXPECT_TRUE(report.ok) << (report.mismatches.empty() ? report.error : report.mismatches.front());
  EXPECT_EQ(report.supplier_calls, 4);
  EXPECT_EQ(report.fault_hits.count("fresh_lineage"), 1u);
  options.mutant = "fresh-start-reads-topic";
  report = RunScenario(scenario, options);
  EXPECT_EQ(report.supplier_calls, 2);
  ASSERT_TRUE(HasViolation(report, Invariant::kProvenance));
  EXPECT_FALSE(HasViolation(report, Invariant::kDifferential));
  EXPECT_FALSE(HasViolation(report, Invariant::kOnce));
}

// Strategy: with compare_model on the mock cluster, the seed regression
// runs on both and tells the same story: no differential violation, as
// expected; with the legacy mutant both see the second supplier call.
TEST(RunnerTest, CompareModelOnMockAgreesOnTheSeedRegression) {
  RunOptions options;
  options.backend = BackendKind::kMock;
  options.compare_model = true;
  RunReport report = RunScenario(LoadSeed(), options);
  EXPECT_TRUE(report.ok) << (report.mismatches.empty() ? report.error : report.mismatches.front());
  EXPECT_FALSE(HasViolation(report, Invariant::kDifferential));
  options.mutant = "legacy-end-offset-marker";
  report = RunScenario(LoadSeed(), options);
  EXPECT_EQ(report.supplier_calls, 2);
  EXPECT_TRUE(HasViolation(report, Invariant::kOnce));
  EXPECT_FALSE(HasViolation(report, Invariant::kDifferential));
}

// Strategy: a backend that cannot even start (kafka without bootstrap
// servers) tells another story than the model: with compare_model the run
// gets a differential violation naming the verdicts, and does not match
// the file's expectation; without compare_model it is only an error.
TEST(RunnerTest, CompareModelReportsADifferentStory) {
  RunOptions options;
  options.backend = BackendKind::kKafka;
  RunReport report = RunScenario(LoadSeed(), options);
  EXPECT_EQ(report.verdict, Verdict::kError);
  EXPECT_FALSE(HasViolation(report, Invariant::kDifferential));
  options.compare_model = true;
  report = RunScenario(LoadSeed(), options);
  EXPECT_FALSE(report.ok);
  ASSERT_TRUE(HasViolation(report, Invariant::kDifferential));
  const auto differential = std::find_if(report.violations.begin(), report.violations.end(),
                                         [](const Violation& v) { return v.invariant == Invariant::kDifferential; });
  // The cause of the error comes with it (issue 16 part 3).
  EXPECT_EQ(differential->message,
            "model and kafka differ: verdict: model pass, kafka error (backend kafka: invalid-argument: backend kafka "
            "needs --bootstrap-servers HOST:PORT)");
  EXPECT_TRUE(std::any_of(report.mismatches.begin(), report.mismatches.end(), [](const std::string& m) {
    return m == "the kafka backend does not tell the model's story";
  }));
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

// Strategy: the richer expectations of scenarios/fast/fault_aimed_by_key_and_call
// hold as written; each one changed to a wrong value gives its own mismatch
// (calls per supplier and per input, a fault that fired, attempt ends, the
// records a restore scans), so none of them is checked vacuously.
TEST(RunnerTest, RicherExpectationsEachCatchAWrongValue) {
  Result<Scenario> loaded =
      LoadScenarioFile(SourceTree() + "/scenarios/fast/fault_aimed_by_key_and_call.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const RunReport right = RunScenario(*loaded, RunOptions{});
  EXPECT_TRUE(right.ok) << fmt::format("{}", fmt::join(right.mismatches, "; "));
  Scenario wrong = *loaded;
  wrong.expect.calls_by_supplier["tool"] = 1;
  wrong.expect.calls_by_input = {2, 1};
  wrong.expect.fired = {true, false};
  wrong.expect.attempt_ends = {"crashed", "crashed", "finished"};
  wrong.expect.restore_scanned_max = 9;
  const RunReport report = RunScenario(wrong, RunOptions{});
  EXPECT_FALSE(report.ok);
  const std::vector<std::string> expected = {
      "expected 1 calls of supplier tool, got 2",
      "expected calls by input [2, 1], got [2, 2]",
      "to stay unfired, but it fired",
      "expected attempts to end [crashed, crashed, finished], got [crashed, failed, finished]",
      "expected each restore to scan at most 9 records, but attempt 3 subtask 0 scanned 11"};
  for (const std::string& text : expected) {
    EXPECT_TRUE(std::any_of(report.mismatches.begin(), report.mismatches.end(),
                            [&](const std::string& m) { return m.find(text) != std::string::npos; }))
        << text;
  }
}

TEST(RunnerTest, ACompletionsExpectationCatchesAWrongCacheAndAMissingNotice) {
  // Strategy: the live cache after cp1's prune (seq 3 alone) as stated
  // passes; stating seq 2 instead, or completing cp1 without a notice, is a
  // mismatch naming the entry.
  Result<Scenario> loaded = LoadScenarioFile(
      SourceTree() +
      "/scenarios/upstream/fluss_action_state_store_i_t__test_prune_works_after_recovery.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->expect.completions.size(), 1u);
  EXPECT_TRUE(RunScenario(*loaded, RunOptions{}).ok);

  Scenario wrong_seq = *loaded;
  wrong_seq.expect.completions[0].cache[0].seq = 2;
  const RunReport seq = RunScenario(wrong_seq, RunOptions{});
  EXPECT_FALSE(seq.ok);
  EXPECT_TRUE(std::any_of(seq.mismatches.begin(), seq.mismatches.end(), [](const std::string& m) {
    return m.find("expected the completion of cp1 at subtask 0") != std::string::npos &&
           m.find("its sequence number is 3, not 2") != std::string::npos;
  })) << fmt::format("{}", fmt::join(seq.mismatches, "; "));

  Scenario never = *loaded;  // cp1 completed without notifying the operator: no prune, no notice
  bool unnotified = false;
  for (AttemptStep& step : never.attempts[1].steps) {
    if (step.kind == AttemptStep::Kind::kComplete && step.checkpoint == "cp1") {
      step.notify = false;
      unnotified = true;
    }
  }
  ASSERT_TRUE(unnotified);
  const RunReport missing = RunScenario(never, RunOptions{});
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(std::any_of(missing.mismatches.begin(), missing.mismatches.end(), [](const std::string& m) {
    return m.find("but no completion notice of it reached the subtask's store") != std::string::npos;
  })) << fmt::format("{}", fmt::join(missing.mismatches, "; "));
}

}  // namespace
}  // namespace durasim
