// World: everything of a run that survives a crash of the agent process:
// the simulated clock, the Kafka log, the checkpoint storage, the outside
// world (suppliers), the trace and the observers. One World per run.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/checkpoint.h"
#include "model/coverage.h"
#include "model/kafka_log.h"
#include "model/log_lifecycle.h"
#include "model/backends/backend_kind.h"
#include "model/backends/log_backend.h"
#include "model/observer.h"
#include "model/suppliers.h"
#include "model/scenario.h"
#include "model/trace.h"

namespace durasim {

class World {
 public:
  explicit World(const Scenario& scenario);

  const Scenario& scenario() const { return scenario_; }
  SimClock& clock() { return clock_; }
  SimTime now() const { return clock_.now; }
  Trace& trace() { return trace_; }
  const Trace& trace() const { return trace_; }
  // The in-memory log: the run's log on the model backend, and on every
  // backend the broker's outage window (SimulatedLogClient obeys it).
  KafkaLog& log() { return log_; }
  // What happened to the log: deletions, re-creations, append times.
  LogLifecycle& lifecycle() { return lifecycle_; }
  const LogLifecycle& lifecycle() const { return lifecycle_; }
  // Where the run's log lives: the model's log unless StartBackend chose
  // another.
  LogBackend& backend() { return *backend_; }
  // Moves the run's log to `backend` (kafka: on the broker at
  // `bootstrap_servers`). REQUIRES: before the first attempt.
  [[nodiscard]] Status StartBackend(BackendKind backend, const std::string& bootstrap_servers,
                                    const std::string& topic_name = "");
  Suppliers& suppliers() { return suppliers_; }
  // The actions of the plan the current attempt runs (Scenario::DeployedPlan).
  const std::vector<ActionSpec>& actions() const { return plan_ != nullptr ? plan_->actions : scenario_.actions; }
  CheckpointStorage& checkpoints() { return checkpoints_; }

  int attempt() const { return attempt_; }
  void BeginAttempt(int attempt);

  // After a crash the rest of the running handler is invisible: it records
  // nothing and reaches no observer.
  bool halted() const { return halted_; }
  void Halt() { halted_ = true; }

  // Appends a trace line (unless halted) and returns its index.
  size_t Record(std::string_view kind, std::string_view detail);

  void AddObserver(RunObserver* observer) { observers_.push_back(observer); }
  // Calls `f(observer)` on every observer unless halted.
  template <typename F>
  void Notify(F&& f) {
    if (halted_) return;
    for (RunObserver* observer : observers_) f(*observer);
  }

  // How often each coverage point fired, by name.
  void CountFault(const CoveragePoint& point) {
    if (!halted_) ++fault_hits_[point.Name()];
  }
  const std::map<std::string, int64_t>& fault_hits() const { return fault_hits_; }

  // Records the harness corrupted, for the invalid-recovery checker.
  void NoteCorrupted(int32_t partition, int64_t offset) { corrupted_.insert({partition, offset}); }
  const CorruptedPositions& corrupted() const { return corrupted_; }
  // The topic was re-created: no record is corrupted any more.
  void ForgetCorrupted() { corrupted_.clear(); }
  void ForgetCorrupted(int32_t partition, int64_t offset) { corrupted_.erase({partition, offset}); }
  // Every record of the backend's log, by partition, as a reader sees it:
  // with the records the harness corrupted corrupted.
  Result<std::vector<std::vector<LogRecord>>> ReadLog();

 private:
  const Scenario& scenario_;
  SimClock clock_;
  Trace trace_;
  KafkaLog log_;
  LogLifecycle lifecycle_;
  Suppliers suppliers_;
  CheckpointStorage checkpoints_;
  std::vector<RunObserver*> observers_;
  CorruptedPositions corrupted_;
  std::map<std::string, int64_t> fault_hits_;
  const PlanSpec* plan_ = nullptr;  // null: the scenario's own plan
  int attempt_ = 0;
  bool halted_ = false;
  // Last: it refers to log_, corrupted_ and the scenario.
  std::unique_ptr<LogBackend> backend_;
};

}  // namespace durasim
