// Runner implementation.
#include "sim/run/runner.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <set>

#include "model/abandon.h"
#include "model/attempt.h"
#include "model/scenario_cost.h"
#include "model/store_designs.h"
#include "model/world.h"
#include "properties/bounded_memory_checker.h"
#include "properties/cancellation_checker.h"
#include "properties/finished_checker.h"
#include "properties/mutants/mutant.h"
#include "properties/once_checker.h"
#include "properties/ownership_checker.h"
#include "properties/phantom_save_checker.h"
#include "properties/provenance_checker.h"
#include "properties/put_latency_checker.h"
#include "properties/reconcile_checker.h"
#include "properties/recovery_checker.h"
#include "properties/retry_budget_checker.h"
#include "properties/same_answer_checker.h"
#include "sim/run/differential.h"
#include "sim/run/log_expectation.h"
#include "sim/run/restore_expectation.h"
#include "sim/run/reference_run.h"
#include "sim/run/restore_clock.h"
#include "sim/run/run_context.h"
#include "sim/run/violation_cause.h"
#include "store/check.h"
#include "store/format.h"
#include "store/hash.h"
#include "store/recovery_marker_json.h"

namespace durasim {
namespace {

// The checkpoints a run took, in order.
class CheckpointCollector : public RunObserver {
 public:
  void OnCheckpointTaken(const std::string& id, size_t) override { ids.push_back(id); }
  std::vector<std::string> ids;
};

// Each completed checkpoint's marker, as a restore of it would read
// (MinimumMarker), with the checkpoint's completed boundaries.
std::vector<std::pair<std::string, std::string>> CompletedMarkers(World& world, const std::vector<std::string>& ids) {
  std::vector<std::pair<std::string, std::string>> markers;
  for (const std::string& id : ids) {
    const Checkpoint* checkpoint = world.checkpoints().Find(id);
    if (checkpoint == nullptr || checkpoint->phase != Checkpoint::Phase::kCompleted) continue;
    if (std::any_of(markers.begin(), markers.end(), [&](const auto& m) { return m.first == id; })) continue;
    RecoveryMarker marker = MinimumMarker(checkpoint->markers);
    if (marker.completed.empty()) marker.completed = checkpoint->completed;
    markers.emplace_back(id, MarkerToJson(marker));
  }
  DURASIM_CHECK_LE(markers.size(), ids.size());  // one marker per checkpoint taken, at most
  return markers;
}

// The input position of each (key, sequence number): the nth input of a
// key has sequence number n.
std::map<std::pair<std::string, int64_t>, size_t> InputPositions(const Scenario& scenario) {
  std::map<std::pair<std::string, int64_t>, size_t> positions;
  std::map<std::string, int64_t> seen;
  for (size_t i = 0; i < scenario.inputs.size(); ++i) {
    positions[{scenario.inputs[i].key, ++seen[scenario.inputs[i].key]}] = i;
  }
  return positions;
}

// The richer expectations: calls per supplier and per input, which faults
// fired, how each attempt ended, records scanned by each restore.
void JudgeDetails(const Scenario& scenario, RunReport& report) {
  const Expectation& expect = scenario.expect;
  if (report.log_difference) report.mismatches.push_back(*report.log_difference);
  if (report.restore_difference) report.mismatches.push_back(*report.restore_difference);
  for (const auto& [supplier, count] : expect.calls_by_supplier) {
    auto it = report.calls_by_supplier.find(supplier);
    const int64_t got = it == report.calls_by_supplier.end() ? 0 : it->second;
    if (got != count) {
      report.mismatches.push_back(fmt::format("expected {} calls of supplier {}, got {}", count, supplier, got));
    }
  }
  if (!expect.calls_by_input.empty() && expect.calls_by_input != report.calls_by_input) {
    report.mismatches.push_back(fmt::format("expected calls by input [{}], got [{}]", fmt::join(expect.calls_by_input, ", "),
                                            fmt::join(report.calls_by_input, ", ")));
  }
  if (!expect.fired.empty()) {
    size_t arm = 0;
    for (size_t a = 0; a < scenario.attempts.size(); ++a) {
      for (const AttemptStep& step : scenario.attempts[a].steps) {
        if (step.kind != AttemptStep::Kind::kArm) continue;
        DURASIM_CHECK_LT(arm, expect.fired.size());  // the parser keeps one entry per arm
        const bool want = expect.fired[arm++];
        const auto armed = std::find_if(report.armed_faults.begin(), report.armed_faults.end(), [&](const ArmedFault& f) {
          return f.attempt == static_cast<int>(a + 1) && f.pos.line == step.pos.line && f.pos.column == step.pos.column;
        });
        const bool got = armed != report.armed_faults.end() && armed->fired_at.has_value();
        if (want != got) {
          report.mismatches.push_back(fmt::format("expected the {} armed at {}:{} to {}, but it {}", NameOf(step.fault),
                                                  step.pos.line, step.pos.column, want ? "fire" : "stay unfired",
                                                  got ? "fired" : "never fired"));
        }
      }
    }
    DURASIM_CHECK_EQ(arm, expect.fired.size());  // every entry judged against its arm
  }
  if (!expect.attempt_ends.empty()) {
    std::vector<std::string> got;
    for (Attempt::End end : report.attempt_ends) got.push_back(AttemptEndName(end));
    if (got != expect.attempt_ends) {
      report.mismatches.push_back(fmt::format("expected attempts to end [{}], got [{}]", fmt::join(expect.attempt_ends, ", "),
                                              fmt::join(got, ", ")));
    }
  }
  if (expect.restore_scanned_max) {
    for (const RestoreScan& scan : report.restore_scans) {
      if (scan.records_scanned <= *expect.restore_scanned_max) continue;
      report.mismatches.push_back(fmt::format("expected each restore to scan at most {} records, but attempt {} "
                                              "subtask {} scanned {}",
                                              *expect.restore_scanned_max, scan.attempt, scan.subtask,
                                              scan.records_scanned));
    }
  }
}

void Judge(const Scenario& scenario, RunReport& report) {
  const Expectation& expect = scenario.expect;
  if (report.verdict == Verdict::kInfra) {
    report.mismatches = {"not judged: the run's infrastructure failed (its error says how)"};
    report.ok = false;
    return;
  }
  if (!Shows(report, expect.verdict)) {
    report.mismatches.push_back(
        fmt::format("expected verdict {}, got {}", expect.verdict.name(), NameOf(report.verdict)));
  }
  if (expect.outputs.has_value() && *expect.outputs != report.outputs) {
    report.mismatches.push_back(
        fmt::format("expected outputs [{}], got [{}]", fmt::join(*expect.outputs, ", "), fmt::join(report.outputs, ", ")));
  }
  if (expect.supplier_calls.has_value() && *expect.supplier_calls != report.supplier_calls) {
    report.mismatches.push_back(
        fmt::format("expected {} supplier calls, got {}", *expect.supplier_calls, report.supplier_calls));
  }
  JudgeDetails(scenario, report);
  report.ok = report.mismatches.empty();
}

// Every invariant checker, observing `world`; `same_answer` is the one
// that collects the outputs.
std::vector<std::unique_ptr<InvariantChecker>> AttachCheckers(World& world, SameAnswerChecker*& same_answer) {
  const Trace& trace = world.trace();
  std::vector<std::unique_ptr<InvariantChecker>> checkers;
  checkers.push_back(std::make_unique<OnceChecker>(trace));
  checkers.push_back(std::make_unique<FinishedChecker>(trace));
  auto outputs = std::make_unique<SameAnswerChecker>(trace, world.scenario().inputs);
  same_answer = outputs.get();
  checkers.push_back(std::move(outputs));
  checkers.push_back(std::make_unique<PhantomSaveChecker>(trace));
  checkers.push_back(std::make_unique<CancellationChecker>(trace));
  checkers.push_back(std::make_unique<RecoveryChecker>(trace));
  checkers.push_back(std::make_unique<BoundedMemoryChecker>(trace, world.scenario().durable.execution));
  checkers.push_back(std::make_unique<PutLatencyChecker>(trace, world));
  std::vector<ActionSpec> every_plans_actions = world.scenario().actions;
  for (const AttemptSpec& attempt : world.scenario().attempts) {
    if (attempt.plan) every_plans_actions.insert(every_plans_actions.end(), attempt.plan->actions.begin(), attempt.plan->actions.end());
  }
  checkers.push_back(std::make_unique<RetryBudgetChecker>(trace, every_plans_actions));
  checkers.push_back(std::make_unique<ProvenanceChecker>(trace));
  checkers.push_back(std::make_unique<OwnershipChecker>(trace));
  std::vector<SupplierSpec> every_plans_suppliers = world.scenario().suppliers;
  for (const AttemptSpec& attempt : world.scenario().attempts) {
    if (attempt.plan) {
      every_plans_suppliers.insert(every_plans_suppliers.end(), attempt.plan->suppliers.begin(),
                                   attempt.plan->suppliers.end());
    }
  }
  checkers.push_back(
      std::make_unique<ReconcileChecker>(trace, every_plans_suppliers, world.scenario().durable.execution));
  for (auto& checker : checkers) world.AddObserver(checker.get());
  return checkers;
}

// After the last attempt finished every input: a completed checkpoint
// covering every input, after which nothing may stay live. False when the
// attempt could not take it.
bool RunEpilogue(World& world, Attempt& attempt) {
  if (!attempt.TakeFinalCheckpoint(kFinalCheckpoint)) return false;
  // Summed over the subtasks: nothing may stay live in any of them.
  const StoreStats stats = attempt.store_stats();
  const size_t maps = attempt.bookkeeping_entries();
  const size_t index = world.Record("run.quiescent", "cached={} bookkeeping={} checkpoint_maps={}",
                                    stats.cached_states, stats.bookkeeping_entries, maps);
  world.Notify([&](RunObserver& o) { o.OnQuiescent(stats, maps, true, index); });
  return true;
}

// How the attempts of a run ended.
struct AttemptsEnd {
  bool all_finished = false;
  bool stuck = false;
  std::string stuck_reason;  // of the first stuck attempt
  size_t stuck_line = 0;     // its attempt.stuck trace line
  bool error = false;
  MemoryByKey final_memory;    // when all_finished
  std::string failed_by_call;  // the last attempt failed over on a durable call failure: why
  std::string failed_by_call_key;  // and the input key of that call
  // How the last attempt ended, and the inputs it left unfinished.
  std::optional<Attempt::End> last_end;
  std::vector<int64_t> unfinished;
};

AttemptsEnd RunEachAttempt(const Scenario& scenario, const RunOptions& options, const AttemptParts& parts,
                           World& world, RunReport& report) {
  AttemptsEnd ended;
  for (size_t i = 0; i < scenario.attempts.size(); ++i) {
    const bool last = i + 1 == scenario.attempts.size();
    Attempt attempt(world, scenario.attempts[i], static_cast<int>(i + 1), parts);
    const Attempt::End end =
        attempt.Run(std::max(options.attempt_time_bound, AttemptTimeNeeded(scenario, static_cast<int>(i + 1))));
    world.Record("attempt.ended", AttemptEndName(end));
    report.attempt_ends.push_back(end);
    if (options.tap != nullptr) options.tap->AfterAttempt(static_cast<int>(i + 1), end, world);
    if (scenario.attempts[i].restore && attempt.restored()) {
      const std::vector<int64_t> scanned = attempt.records_scanned_by_subtask();
      for (size_t t = 0; t < scanned.size(); ++t) {
        report.restore_scans.push_back(RestoreScan{static_cast<int>(i + 1), static_cast<int>(t), scanned[t]});
      }
    }
    report.armed_faults.insert(report.armed_faults.end(), attempt.armed_faults().begin(),
                               attempt.armed_faults().end());
    if (last) {
      ended.last_end = end;
      if (end != Attempt::End::kError) ended.unfinished = attempt.UnfinishedInputs();
    }
    if (end == Attempt::End::kStuck && !ended.stuck) {
      ended.stuck = true;
      ended.stuck_reason = fmt::format("attempt {}: {}", i + 1, attempt.stuck_reason());
      ended.stuck_line = attempt.stuck_line();
    }
    if (end == Attempt::End::kError) {
      ended.error = true;
      report.error = fmt::format("attempt {} ended in error: {}", i + 1, attempt.error_message());
      break;
    }
    if (last && end == Attempt::End::kFailed && !attempt.call_failure().empty()) {
      ended.failed_by_call = attempt.call_failure();
      ended.failed_by_call_key = attempt.call_failure_key();
    }
    if (last && end == Attempt::End::kFinished && attempt.AllInputsFinished()) {
      ended.all_finished = true;
      ended.final_memory = MemoryOf(attempt.keyed_states());
      if (!RunEpilogue(world, attempt)) {
        ended.error = true;
        report.error = fmt::format("attempt {}: {}", i + 1, attempt.error_message());
        break;
      }
    }
  }
  // Attempts after an error never ran.
  DURASIM_CHECK_LE(report.attempt_ends.size(), scenario.attempts.size());
  // A run finishes every input only in a last attempt that finished.
  DURASIM_CHECK(!ended.all_finished || ended.last_end == Attempt::End::kFinished);
  DURASIM_CHECK(!ended.stuck || !ended.stuck_reason.empty());  // the liveness violation quotes it
  return ended;
}

// What the world saw, into the report: coverage, supplier calls, the log,
// the trace (moved out of the world). `compared`: also what a differential
// comparison reads (calls by identity, the log's records), which only a
// run on a librdkafka backend or the model run it is compared with needs.
// Returns false when the log cannot be read.
bool Observe(World& world, RunReport& report, bool compared) {
  report.fault_hits = world.fault_hits();
  if (const size_t never = world.checkpoints().never_notified(); never > 0) {
    report.fault_hits[CoveragePoint::Made(ScriptFault::kNeverNotified).Name()] += static_cast<int64_t>(never);
  }
  report.supplier_calls = world.suppliers().total_calls();
  report.calls_by_supplier = world.suppliers().calls_by_supplier();
  {
    const std::map<std::pair<std::string, int64_t>, size_t> positions = InputPositions(world.scenario());
    report.calls_by_input.assign(world.scenario().inputs.size(), 0);
    for (const auto& [call, invoked] : world.suppliers().calls_by_identity()) {
      auto at = positions.find({call.state_key.key, call.state_key.seq});
      if (at != positions.end()) report.calls_by_input[at->second] += invoked.count;
    }
  }
  report.trace_hash = world.trace().hash();
  report.sim_time = world.now();
  report.trace = std::move(world.trace());
  report.restore_difference = FirstRestoreDifference(world.scenario(), world.rebuilts());
  if (!report.restore_difference) {
    report.restore_difference = FirstCheckpointDifference(world.scenario(), world.checkpoints());
  }
  if (!report.restore_difference) {
    report.restore_difference = FirstCompletionDifference(world.scenario(), world.pruneds());
  }
  const bool log_expected = !world.scenario().expect.log.empty();
  if (!compared && !log_expected) return true;
  if (compared) {
    for (const auto& [call, invoked] : world.suppliers().calls_by_identity()) {
      report.calls_by_identity[call.ToString()] = invoked.count;
    }
  }
  Result<std::vector<std::vector<LogRecord>>> records = world.ReadLog();
  if (records.ok() && log_expected) report.log_difference = FirstLogDifference(world.scenario(), *records);
  if (records.ok() && compared) {
    for (const std::vector<LogRecord>& partition : *records) {
      std::vector<std::string>& out = report.log_records.emplace_back();
      for (const LogRecord& record : partition) out.push_back(fmt::format("{} {:016x}", record.key, HashString(record.value)));
    }
  } else if (!records.ok() && report.error.empty()) {  // an attempt's error comes first
    report.error = fmt::format("reading the log at the end of the run failed: {}", records.status().ToString());
  }
  return records.ok();
}

// No vacuous pass: every input finishes by the end of the last attempt,
// unless the expectation allows it, the run without faults fails over on a
// durable call failure itself, or the last attempt ended in an error or a
// rejected restore (nothing can finish after it; a rightly rejected restore
// is a pass, a wrongly rejected one an invalid-recovery violation), or failed
// over on a call of an input key whose reconciler could not tell whether a
// call completed (`reconciler_unknown_keys`: the failure, or a retry's, is
// one the run without faults never has).
std::optional<Violation> UnfinishedViolation(const Scenario& scenario, const Reference& reference,
                                             const AttemptsEnd& ended,
                                             const std::set<std::string>& reconciler_unknown_keys) {
  if (!reference.finished || ended.error || !ended.last_end.has_value()) return std::nullopt;
  if (!ended.failed_by_call.empty() && reconciler_unknown_keys.contains(ended.failed_by_call_key)) return std::nullopt;
  if (*ended.last_end == Attempt::End::kRestoreRejected || *ended.last_end == Attempt::End::kStuck) {
    return std::nullopt;  // nothing runs after a rejected restore; a stuck attempt is liveness already
  }
  const Expectation& expect = scenario.expect;
  if (expect.unfinished_all) return std::nullopt;
  std::vector<std::string> named;
  for (int64_t offset : ended.unfinished) {
    if (std::find(expect.unfinished.begin(), expect.unfinished.end(), offset) != expect.unfinished.end()) continue;
    // An unfinished input is one of the scenario's, by its offset.
    DURASIM_CHECK(offset >= 0 && static_cast<size_t>(offset) < scenario.inputs.size());
    const InputSpec& input = scenario.inputs[static_cast<size_t>(offset)];
    named.push_back(fmt::format("{} (key {:?}, line {})", offset, input.key, input.pos.line));
  }
  if (named.empty()) return std::nullopt;
  return Violation{Invariant::kLiveness,
                   fmt::format("the last attempt ended {} with input{} {} unfinished; a scenario that means it "
                               "lists them in `expect: {{unfinished: [...]}}`",
                               AttemptEndName(*ended.last_end), named.size() == 1 ? "" : "s", fmt::join(named, ", "))};
}

// No silent fault: every armed fault fires, unless the expectation allows
// it. The message names each one and where it was armed.
std::optional<std::string> UnfiredFaults(const Scenario& scenario, const std::vector<ArmedFault>& armed) {
  if (scenario.expect.allow_unfired) return std::nullopt;
  std::vector<std::string> unfired;
  for (const ArmedFault& fault : armed) {
    if (fault.fired_at.has_value()) continue;
    unfired.push_back(fmt::format("{}:{}:{}: {} nth={}{} armed in attempt {} never fired", scenario.path,
                                  fault.pos.line, fault.pos.column, NameOf(fault.kind), fault.nth,
                                  fault.subtask ? fmt::format(" subtask={}", *fault.subtask) : "", fault.attempt));
  }
  if (unfired.empty()) return std::nullopt;
  return fmt::format("{}; the scenario tests nothing there (allow it with `expect: {{allow_unfired: true}}`)",
                     fmt::join(unfired, "; "));
}

// A finding that follows a restore's read of a record the restoring job
// did not write is not the store's (docs/scenarios.md, "Records the run did
// not write"): the error that says so, naming the record and the finding.
std::string ForeignReadError(const World::ForeignRead& read, const std::vector<Violation>& violations) {
  const std::string finding = violations.empty()
                                  ? std::string("an attempt made no progress")
                                  : fmt::format("{}: {}", NameOf(violations.front().invariant), violations.front().message);
  const std::string who =
      read.writer_lineage == 0
          ? fmt::format("a record the run did not write at partition {} offset {} (key {:?})", read.partition,
                        read.offset, read.key)
          : fmt::format("a record another job of the run wrote at partition {} offset {} (key {:?}; the job started "
                        "fresh at attempt {})",
                        read.partition, read.offset, read.key, read.writer_lineage);
  return fmt::format("{} was read by the restore of attempt {} (the job started at attempt {}), so what followed is "
                     "not blamed on the store ({}); see docs/scenarios.md, \"Records the run did not write\"",
                     who, read.attempt, read.lineage, finding);
}

// A restore read a record the run did not write (`read`). A finding whose
// evidence all lies before that read is the store's alone and stands; one
// after it, one that cites nothing, and an attempt stuck after it
// (`stuck`, cleared when it is dropped) are not judged. With nothing left standing the run is
// an error that names the read; otherwise what stands is the verdict, its
// first finding naming what was dropped. Returns whether the run is an error.
bool JudgeAroundForeignRead(const World::ForeignRead& read, bool& stuck, RunReport& report) {
  const auto before_the_read = [&](const Violation& v) {
    return !v.evidence.empty() &&
           std::all_of(v.evidence.begin(), v.evidence.end(), [&](size_t at) { return at < read.trace_index; });
  };
  // The read is traced inside a restore, after its attempt's start.
  DURASIM_CHECK_GT(read.trace_index, size_t{0});
  const size_t findings = report.violations.size();
  std::vector<Violation> standing;
  std::vector<Violation> dropped;
  for (Violation& v : report.violations) (before_the_read(v) ? standing : dropped).push_back(std::move(v));
  DURASIM_CHECK_EQ(standing.size() + dropped.size(), findings);
  report.violations.clear();
  if (dropped.empty() && !stuck) {
    report.violations = std::move(standing);
    return false;
  }
  if (standing.empty()) {
    report.error = ForeignReadError(read, dropped);
    report.violations = std::move(dropped);
    return true;
  }
  standing.front().message += "\n(what followed the read is not judged: " + ForeignReadError(read, dropped) + ")";
  report.violations = std::move(standing);
  stuck = false;
  return false;
}

// The run's infrastructure failed (`cause`, which the harness did not
// inject): nothing the store did afterwards is judged, and nothing it did
// before is counted (docs/backends.md, "Infrastructure failures").
void MarkInfra(const std::string& cause, RunReport& report) {
  const size_t unjudged = report.violations.size();
  report.verdict = Verdict::kInfra;
  report.error = unjudged == 0 ? cause
                               : fmt::format("{} ({} violation{} seen before it not judged: run it again on a "
                                             "healthy broker)",
                                             cause, unjudged, unjudged == 1 ? "" : "s");
  report.violations.clear();
}

// Finishes every checker with what the run ended with and adds their
// violations to `report`, each with its causes when `explain`.
void FinishCheckers(const std::vector<std::unique_ptr<InvariantChecker>>& checkers, const RunEnding& ending,
                    const CauseTracker* causes, RunReport& report) {
  for (const auto& checker : checkers) {
    checker->Finish(ending);
    for (const Violation& v : checker->violations()) {
      Violation explained = v;
      if (causes != nullptr) {
        for (const std::string& line : causes->CausesOf(v.evidence)) explained.message += "\n" + line;
      }
      report.violations.push_back(std::move(explained));
    }
  }
}

// What the attempts ended with, for the checkers.
RunEnding EndingOf(const AttemptsEnd& ended, const Reference& reference) {
  RunEnding ending;
  ending.all_inputs_finished = ended.all_finished;
  ending.reference_outputs = reference.outputs;
  ending.reference_finished = reference.finished;
  ending.reference_failed_key = reference.failed_key;
  ending.reference_memory = reference.memory;
  ending.final_memory = ended.final_memory;
  ending.failed_by_call = ended.failed_by_call;
  ending.failed_by_call_key = ended.failed_by_call_key;
  return ending;
}

// The verdict of a run whose violations are all in `report`: an error (the
// run could not be judged: an unfired arm, an observation that failed, a
// violation after a foreign read), a violation, stuck or pass; then infra
// over all of them when the backend's infrastructure failed.
void DecideVerdict(const Scenario& scenario, const RunOptions& options, World& world, const AttemptsEnd& ended,
                   RunReport& report) {
  // A violation outranks an unfired arm: a bug may end the job before a
  // later arm's point comes.
  bool unfired_error = false;
  if (std::optional<std::string> unfired = UnfiredFaults(scenario, report.armed_faults);
      unfired && !ended.error && report.violations.empty()) {
    unfired_error = true;
    report.error = *unfired;
  }
  const bool compared = options.backend != BackendKind::kModel || options.compared;
  bool error = !Observe(world, report, compared) || ended.error || unfired_error;
  bool stuck = ended.stuck;
  if (!error && world.foreign_read().has_value()) {
    const World::ForeignRead& read = *world.foreign_read();
    // A stuck attempt before the read is the store's alone, like a finding
    // (its liveness violation cites its attempt.stuck line); one after it
    // may be dropped.
    const bool after_the_read = ended.stuck_line > read.trace_index;
    bool dropped_stuck = stuck && after_the_read;
    error = JudgeAroundForeignRead(read, dropped_stuck, report);
    if (stuck && after_the_read) stuck = dropped_stuck;
  }
  if (error) {
    report.verdict = Verdict::kError;
  } else if (!report.violations.empty() && !(stuck && report.violations.size() == 1)) {
    report.verdict = Verdict::kViolation;
  } else {
    report.verdict = stuck ? Verdict::kStuck : Verdict::kPass;
  }
  // A pass has nothing against it; an error says what went wrong.
  DURASIM_CHECK(report.verdict != Verdict::kPass || report.violations.empty());
  DURASIM_CHECK(report.verdict != Verdict::kError || !report.error.empty());
  if (const Status infra = world.backend().InfrastructureFailure(); !infra.ok()) {
    MarkInfra(fmt::format("backend {}: {}", NameOf(options.backend), infra.message()), report);
  }
}

// One run of the attempts; fills everything but the expectation. `explain`:
// name each violation's cause and keep the record lines (CauseTracker). The
// one place a run's world is built: the explained rerun, the determinism
// check's second run and the model a backend is compared with each come
// through here (RunScenario).
void RunAttempts(const Scenario& scenario, const RunOptions& options, const AttemptParts& parts,
                 const Reference& reference, bool explain, RunReport& report) {
  World world(scenario);
  if (options.backend == BackendKind::kFluss && scenario.store != StoreDesign::kFluss) {
    report.verdict = Verdict::kError;
    report.error = fmt::format("backend fluss: store design {}: {}", NameOf(scenario.store), kFlussBackendOnly);
    return;
  }
  if (Status started = world.StartBackend(options.backend, options.bootstrap_servers, options.keep_topic);
      !started.ok()) {
    report.verdict = Verdict::kError;
    report.error = fmt::format("backend {}: {}", NameOf(options.backend), started.ToString());
    // A backend that does not start is the broker's (or the mock's) failure,
    // unless it was asked for something invalid (no bootstrap servers).
    if (started.code() != StatusCode::kInvalidArgument) MarkInfra(report.error, report);
    return;
  }
  SameAnswerChecker* outputs = nullptr;
  std::vector<std::unique_ptr<InvariantChecker>> checkers = AttachCheckers(world, outputs);
  CauseTracker causes(world.trace());  // beside the checkers: what their violations cite
  if (explain) world.AddObserver(&causes);
  CheckpointCollector checkpoints;
  if (!options.keep_topic.empty()) world.AddObserver(&checkpoints);
  if (options.tap != nullptr && options.tap->observer() != nullptr) world.AddObserver(options.tap->observer());
  RestoreClock restore_clock;
  if (options.time_restores) world.AddObserver(&restore_clock);
  const AttemptsEnd ended = RunEachAttempt(scenario, options, parts, world, report);
  // On librdkafka a signal that came meanwhile may have cut a call to the
  // broker short (its failure is the interrupt's, not the store's): nothing
  // is judged. A model run is cut only by the scheduler's poll.
  if (options.backend != BackendKind::kModel && AbandonRequested()) throw RunAbandoned{};
  for (RestoreScan& scan : report.restore_scans) scan.wall_us = restore_clock.WallUs(scan.attempt, scan.subtask);
  for (const Checkpoint* failed : world.checkpoints().failed()) {
    report.failed_checkpoints.push_back(
        fmt::format("{} (attempt {}): {}", failed->id, failed->attempt, failed->failure));
  }
  FinishCheckers(checkers, EndingOf(ended, reference), explain ? &causes : nullptr, report);
  if (explain) report.record_lines = causes.TakeRecordLines();
  if (!options.keep_topic.empty()) report.checkpoint_markers = CompletedMarkers(world, checkpoints.ids);
  if (ended.stuck) {
    report.violations.push_back(
        Violation{Invariant::kLiveness, "an attempt made no progress (" + ended.stuck_reason + "): see attempt.stuck",
                  {ended.stuck_line}});
  }
  report.unfinished_inputs = ended.unfinished;
  if (std::optional<Violation> unfinished =
          UnfinishedViolation(scenario, reference, ended, world.reconciler_unknown_keys())) {
    report.violations.push_back(*unfinished);
  }
  for (const auto& [id, value] : outputs->outputs()) report.outputs.push_back(value);
  DecideVerdict(scenario, options, world, ended, report);
  // The verdict's read of the log is a broker call too.
  if (options.backend != BackendKind::kModel && AbandonRequested()) throw RunAbandoned{};
}

// The run of the attempts, explained (RunAttempts) when it found a
// violation or `options` ask for the record lines. Watching for causes costs
// a few percent of a run, and most runs pass: on the model, which is
// deterministic, a run is first made unexplained, and only one that found a
// violation is made again, explained; the second run replaces the first
// whole, so the report is the one a single explained run gives. A tapped run
// (a timeline draws it once) and the librdkafka backends (their runs differ)
// are explained the first time.
void RunExplainedAttempts(const Scenario& scenario, const RunOptions& options, const AttemptParts& parts,
                          const Reference& reference, RunReport& report) {
  const bool explain_first =
      options.record_lines || options.backend != BackendKind::kModel || options.tap != nullptr;
  if (explain_first) return RunAttempts(scenario, options, parts, reference, true, report);
  RunReport unexplained = report;  // what the runner filled before the attempts
  try {
    RunAttempts(scenario, options, parts, reference, false, unexplained);
  } catch (...) {
    report = std::move(unexplained);  // what the run got to, as a single run leaves it
    throw;
  }
  if (unexplained.violations.empty()) {
    report = std::move(unexplained);
    return;
  }
  RunAttempts(scenario, options, parts, reference, true, report);
}

// `--check-determinism`: the same scenario run again must give the same
// trace; a different one is a determinism violation naming the first
// different event.
void CheckDeterminism(const Scenario& scenario, const RunOptions& options, const AttemptParts& parts,
                      const Reference& reference, RunReport& report) {
  RunReport again;
  RunOptions again_options = options;
  again_options.keep_topic.clear();  // the kept topic is the first run's
  again_options.tap = nullptr;       // the timeline draws the first run
  RunAttempts(scenario, again_options, parts, reference, /*explain=*/false, again);  // only its trace is read
  if (report.verdict == Verdict::kInfra) return;  // nothing to compare
  if (again.verdict == Verdict::kInfra) {
    MarkInfra(again.error, report);
    return;
  }
  if (again.trace_hash == report.trace_hash) return;
  const size_t first = FirstDifferentLine(report.trace, again.trace).value_or(report.trace.size());
  report.violations.push_back(Violation{
      Invariant::kDeterminism, fmt::format("the same scenario gave trace hashes {:016x} and {:016x}; first difference "
                                           "at event #{}:\n    {}\n    {}",
                                           report.trace_hash, again.trace_hash, first,
                                           first < report.trace.size() ? report.trace.line(first) : "<end>",
                                           first < again.trace.size() ? again.trace.line(first) : "<end>")});
  report.verdict = Verdict::kViolation;
}

}  // namespace

bool Shows(const RunReport& report, ExpectedVerdict expected) {
  return Shows(report.verdict, InvariantsOf(report.violations), expected);
}

ExpectedVerdict FiledUnder(const RunReport& report) {
  return FiledUnder(report.verdict, InvariantsOf(report.violations));
}

namespace {

RunReport RunScenarioOnce(const Scenario& scenario, const RunOptions& options);

// Runs `scenario` on the model too; a different observation becomes a
// differential violation of `report`. Returns whether there was one.
bool CompareWithModel(const Scenario& scenario, const RunOptions& options, RunReport& report) {
  RunOptions model_options = options;
  model_options.backend = BackendKind::kModel;
  model_options.compare_model = false;
  model_options.compared = true;
  model_options.check_determinism = false;
  model_options.tap = nullptr;
  return MarkDifference(RunScenarioOnce(scenario, model_options), report);
}

}  // namespace

RunReport NotRunReport(const Scenario& scenario, const RunOptions& options, const std::string& cause) {
  RunReport report;
  report.scenario = scenario.name;
  report.path = scenario.path;
  report.backend = options.backend;
  report.mutant = options.mutant.value_or(scenario.mutant.value_or(""));
  MarkInfra(cause, report);
  Judge(scenario, report);
  DURASIM_CHECK(!report.ok);  // a run that did not start is never as expected
  return report;
}

RunReport RunScenario(const Scenario& scenario, const RunOptions& options) {
  try {
    return RunScenarioOnce(scenario, options);
  } catch (const RunAbandoned&) {
    // A signal stopped the run midway (model/abandon.h): what it got to is
    // no outcome, so it is not judged, as a run whose broker failed; the
    // command reports itself interrupted.
    RunReport report = NotRunReport(scenario, options, "interrupted: a signal stopped this run midway (not judged)");
    report.mismatches = {"not judged: a signal stopped it midway"};
    return report;
  }
}

namespace {

RunReport RunScenarioOnce(const Scenario& scenario, const RunOptions& options) {
  if (options.store.has_value() && !scenario.store_named) {
    // --store: the scenario as if its file said `store: <design>`; a file
    // that names its design keeps it. The options keep --store, so that
    // the reproduce lines of this run name it.
    Scenario designed = scenario;
    designed.store = *options.store;
    designed.store_named = true;
    return RunScenarioOnce(designed, options);
  }
  // A failed DURASIM_CHECK during this run names it and how to reproduce it.
  const CheckContext check_context = RunCheckContext(scenario, options);

  RunReport report;
  report.scenario = scenario.name;
  report.path = scenario.path;
  report.backend = options.backend;
  report.mutant = options.mutant.value_or(scenario.mutant.value_or(""));
  const Mutant* mutant = nullptr;
  if (!report.mutant.empty()) {
    mutant = FindMutant(report.mutant);
    if (mutant == nullptr) {
      report.verdict = Verdict::kError;
      report.error = fmt::format("unknown mutant \"{}\"", report.mutant);
      Judge(scenario, report);
      return report;
    }
  }
  std::optional<std::string> why = NotRunnableOn(scenario, scenario.store);
  if (!why && mutant != nullptr) why = WhyNotOn(*mutant, scenario.store);
  if (why) {
    // Callers leave such a file out and say so (run --store); this is the
    // last guard, never as expected, whatever the file expects.
    report.verdict = Verdict::kError;
    report.error = fmt::format("store design {} cannot run this scenario: {}", NameOf(scenario.store), *why);
    // (a mutant that does not apply would run the production parts unseen)
    Judge(scenario, report);
    report.ok = false;
    report.mismatches.push_back(report.error);
    return report;
  }
  const AttemptParts parts = PartsWith(mutant, scenario.store);

  try {
    Result<Reference> reference = ReferenceOutputs(scenario, options.attempt_time_bound);
    if (!reference.ok()) {
      report.verdict = Verdict::kError;
      report.error = reference.status().ToString();
    } else {
      RunExplainedAttempts(scenario, options, parts, *reference, report);
      if (options.check_determinism) CheckDeterminism(scenario, options, parts, *reference, report);
    }
  } catch (const std::exception& error) {
    report.verdict = Verdict::kError;
    report.error = fmt::format("internal error in scenario {}: {}", scenario.path, error.what());
  }
  // A run that never started (its reference or backend failed) has no
  // trace, and format 1 reported no hash for it either (trace_hash 0).
  if (options.text_hash && !report.trace.empty()) report.trace_text_hash = report.trace.TextHash();
  // An infra run has no story of its own to compare.
  const bool differs = options.compare_model && options.backend != BackendKind::kModel &&
                       report.verdict != Verdict::kInfra && CompareWithModel(scenario, options, report);
  Judge(scenario, report);
  if (differs && !scenario.expect.verdict.IsViolated(Invariant::kDifferential)) {
    report.mismatches.push_back(fmt::format("the {} backend does not tell the model's story", NameOf(options.backend)));
    report.ok = false;
  }
  DURASIM_CHECK_EQ(report.ok, report.mismatches.empty());  // ok means nothing is amiss
  return report;
}

}  // namespace
}  // namespace durasim
