// Runner: runs one scenario end to end. It first runs the scenario's plan
// and inputs without faults (the reference answer), then runs its attempts
// with the chosen store and runtime (production or a mutant) under every
// invariant checker, and judges the outcome against the expectation.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/attempt.h"
#include "model/backends/backend_kind.h"
#include "model/scenario.h"
#include "model/scheduler.h"
#include "model/verdict.h"
#include "properties/invariant_checker.h"
#include "sim/run/infra_guard.h"

namespace durasim {

class World;

// Watches one run without changing it (the timeline, --dump-log): its
// observer hears every event of the run's world (after the checkers), and
// AfterAttempt sees the world once each attempt has ended. Only the first
// run of the attempts is tapped (not the --check-determinism repeat, not the
// model run of --compare-model).
class RunTap {
 public:
  virtual ~RunTap() = default;
  virtual RunObserver* observer() { return nullptr; }
  virtual void AfterAttempt(int /*attempt*/, Attempt::End /*end*/, World& /*world*/) {}
};

struct RunOptions {
  std::optional<std::string> mutant;  // overrides the scenario's `mutant:`
  BackendKind backend = BackendKind::kModel;
  std::string bootstrap_servers;      // --backend kafka
  bool check_determinism = false;     // run twice and compare the traces
  // On mock or kafka, also run on the model: the first different observation
  // (sim/run/differential.h) is a violation of Invariant::kDifferential.
  bool compare_model = false;
  SimDuration attempt_time_bound = std::chrono::minutes(10);  // simulated time per attempt
  // --backend kafka: the run's topic, kept on the broker under this name
  // (`run --keep-topic`, for `durasim inspect`); the report then holds each
  // completed checkpoint's marker. "": a fresh name, no markers.
  std::string keep_topic;
  // What a command does about infrastructure failures on mock or kafka
  // (sim/run/infra_guard.h: --broker-check-s, --infra-errors-max); RunScenario
  // itself does not read them.
  double broker_check_s = kBrokerCheckSDefault;
  int infra_errors_max = kInfraErrorsMaxDefault;
  RunTap* tap = nullptr;  // not owned; may be null
  // Also hash the trace's text as trace format 1 did (RunReport::
  // trace_text_hash): renders every line, for comparing traces with builds
  // before format 2 (ci/compare-traces.sh).
  bool text_hash = false;
  // The model run a comparison reads (CompareWithModel): it keeps what
  // sim/run/differential.h compares (RunReport::calls_by_identity, log_records),
  // which a model run compared with nothing does not gather.
  bool compared = false;
  // Keep, per record line of the trace, the record (RunReport::
  // record_lines) for the readable trace, even when the run passes.
  bool record_lines = false;
};

// The infrastructure policy of a command run with `options`.
InfraOptions InfraOptionsOf(const RunOptions& options);

struct RestoreScan {
  int attempt = 0;
  int subtask = 0;
  int64_t records_scanned = 0;
};

struct RunReport {
  std::string scenario;
  std::string path;
  std::string mutant;  // empty: production code
  BackendKind backend = BackendKind::kModel;
  Verdict verdict = Verdict::kPass;
  bool ok = false;      // the verdict matched the expectation
  std::vector<std::string> mismatches;  // why not ok
  int64_t supplier_calls = 0;
  std::vector<int64_t> outputs;  // de-duplicated, in (input, index) order
  uint64_t trace_hash = 0;
  std::optional<uint64_t> trace_text_hash;  // with RunOptions::text_hash: FNV-1a over the trace's text
  SimTime sim_time{0};
  std::vector<Violation> violations;
  std::map<std::string, int64_t> fault_hits;  // fault kind (and kind@put) -> times fired
  // What sim/run/differential.h compares; only on a librdkafka backend and in
  // the model run compared with it (RunOptions::compared).
  std::map<std::string, int64_t> calls_by_identity;     // call identity -> supplier invocations
  std::vector<std::vector<std::string>> log_records;    // per partition, in offset order: "<key> <value digest>"
  // Every fault the scripts armed, whether and where it fired.
  std::vector<ArmedFault> armed_faults;
  // Inputs (offsets) the last attempt left unfinished.
  std::vector<int64_t> unfinished_inputs;
  // Supplier invocations by supplier name, and per input (in `inputs` order).
  std::map<std::string, int64_t> calls_by_supplier;
  std::vector<int64_t> calls_by_input;
  // Records each subtask's rebuild scanned, per restoring attempt.
  std::vector<RestoreScan> restore_scans;
  // How each attempt ended, in order (attempts after an error never ran).
  std::vector<Attempt::End> attempt_ends;
  // Checkpoints that failed at run time: "cp1 (attempt 1): why".
  std::vector<std::string> failed_checkpoints;
  std::string error;  // verdict error: what went wrong
  Trace trace;
  // Per trace line of a record appended or discovered: the record, for the
  // readable trace to say what it holds (sim/run/record_summary.h). Not in the
  // trace hash. Kept when RunOptions::record_lines asks, when the run found
  // a violation, for a tapped run (RunOptions::tap), and always on mock and
  // kafka.
  std::map<size_t, LogRecord> record_lines;
  // With RunOptions::keep_topic: each completed checkpoint's id and its
  // recovery marker (the union list's minimum, with the checkpoint's
  // completed boundaries) in JSON (store/recovery_marker_json.h).
  std::vector<std::pair<std::string, std::string>> checkpoint_markers;
};

RunReport RunScenario(const Scenario& scenario, const RunOptions& options);

// The report of a run of `scenario` that did not start because its broker
// did not answer (InfraGuard::BeforeRun): verdict infra, `cause` its error.
RunReport NotRunReport(const Scenario& scenario, const RunOptions& options, const std::string& cause);

// Whether `report` shows `expected` (model/verdict.h): what the runner
// judges a scenario's expectation by, and the shrinker a candidate.
bool Shows(const RunReport& report, ExpectedVerdict expected);
// What the sweep files `report` under when it failed.
ExpectedVerdict FiledUnder(const RunReport& report);

// The command-line flags that select `options`' backend and comparison, each
// with a leading space ("" for the model): for reproduce lines.
std::string BackendFlags(const RunOptions& options);

}  // namespace durasim
