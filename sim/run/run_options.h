// What a run is asked to do (RunOptions) and the tap that may watch it:
// what RunScenario (sim/run/runner.h) takes, and what the run context a
// failed check prints (sim/run/run_context.h) describes.
#pragma once

#include <optional>
#include <string>

#include "model/attempt.h"
#include "model/backends/backend_kind.h"
#include "model/observer.h"
#include "model/scheduler.h"
#include "model/store_designs.h"
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
  std::optional<StoreDesign> store;   // --store: the design of scenarios that name none
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
  // Time each restore's rebuild in wall time (RestoreScan::wall_us, for
  // compare-stores); off, the clock is not attached and every wall_us is 0,
  // so an ordinary run's observers stay as they were.
  bool time_restores = false;
};

// The infrastructure policy of a command run with `options`.
InfraOptions InfraOptionsOf(const RunOptions& options);

// The command-line flags that select `options`' store design, backend and
// comparison, each with a leading space ("" for the scenario's own design
// on the model): for reproduce lines.
std::string BackendFlags(const RunOptions& options);

}  // namespace durasim
