// World: everything of a run that survives a crash of the agent process:
// the simulated clock, the Kafka log, the checkpoint storage, the outside
// world (suppliers), the trace and the observers. One World per run.
#pragma once

#include <map>
#include <memory>
#include <optional>
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
  // `text`: whether the trace keeps its lines; a run whose trace nobody
  // reads (the reference run) formats none, and its observers get value
  // digests of 0 (RunObserver::OnPutResult): a world with a checker keeps
  // its events.
  explicit World(const Scenario& scenario, Trace::Text text = Trace::Text::kKept);

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

  // Lineages (docs/scenarios.md, "Lineages"): the job a run of attempts
  // belongs to, named by the attempt that started it fresh. The current
  // one (0 before the first attempt enters one), and the one attempt
  // `attempt` entered (0: none yet).
  int lineage() const { return lineage_; }
  int LineageOf(int attempt) const {
    auto it = lineage_of_attempt_.find(attempt);
    return it == lineage_of_attempt_.end() ? 0 : it->second;
  }
  // The current attempt enters `lineage`: records appended from now on are
  // that lineage's, and the observers hear of it.
  void EnterLineage(int lineage);
  // The lineage whose attempt appended the record at (partition, offset),
  // or 0 when the run did not write it (or the topic was re-created since).
  int WriterLineage(int32_t partition, int64_t offset) const {
    auto it = writer_lineage_.find({partition, offset});
    return it == writer_lineage_.end() ? 0 : it->second.lineage;
  }
  // Attempt `attempt` of the current lineage appended `record`.
  void NoteWritten(const LogRecord& record, int attempt) {
    writer_lineage_[{record.partition, record.offset}] = Writer{lineage_, attempt, record.key};
  }
  // The topic was re-created: the run wrote none of its records.
  void ForgetWritten() {
    writer_lineage_.clear();
    foreign_.clear();
  }
  // A record the run did not write (a `foreign` step) at (partition, offset).
  void NoteForeign(int32_t partition, int64_t offset, std::string key) { foreign_[{partition, offset}] = std::move(key); }
  // A restore's rebuild read a record its lineage did not write: one from
  // outside the run (writer_lineage 0) or one another lineage's job wrote.
  struct ForeignRead {
    int attempt = 0;         // the restoring attempt
    int lineage = 0;         // the lineage it continues
    int writer_lineage = 0;  // 0: the run did not write it
    int32_t partition = 0;
    int64_t offset = 0;
    std::string key;
    size_t trace_index = 0;  // its `restore.foreign` event: what the run did before it is the store's alone
  };
  // Records in the rebuild range of a restore of `lineage` (from
  // `marker`'s offset on each partition it names, from 0 on the others)
  // that `lineage` did not write: every record from outside the run, and
  // those another lineage's attempts wrote after `checkpoint_attempt` took
  // the checkpoint (another job writing into the topic since); in
  // (partition, offset) order. The first is kept for the verdict
  // (NoteForeignRead).
  std::vector<ForeignRead> ForeignInRange(const MarkerOffsets& marker, int lineage, int checkpoint_attempt) const;
  void NoteForeignRead(const ForeignRead& read) {
    if (!foreign_read_) foreign_read_ = read;
  }
  const std::optional<ForeignRead>& foreign_read() const { return foreign_read_; }

  // After a crash the rest of the running handler is invisible: it records
  // nothing and reaches no observer.
  bool halted() const { return halted_; }
  void Halt() { halted_ = true; }

  // Whether the trace keeps its events: false only in the run without
  // faults (sim/run/reference_run.cc), whose one observer reads outputs.
  bool keeps_events() const { return trace_.keeps_events(); }

  // Appends a trace line (unless halted) and returns its index; the detail
  // is `detail`, or formatted from `format` and its arguments.
  size_t Record(std::string_view kind, std::string_view detail) {
    if (halted_) return trace_.size();
    return trace_.Add(clock_.now, attempt_, kind, detail);
  }
  template <typename First, typename... Rest>
  size_t Record(std::string_view kind, TraceFormat<std::type_identity_t<First>, std::type_identity_t<Rest>...> format,
                First&& first, Rest&&... rest) {
    if (halted_) return trace_.size();
    return trace_.Add(clock_.now, attempt_, kind, format, std::forward<First>(first), std::forward<Rest>(rest)...);
  }

  void AddObserver(RunObserver* observer) { observers_.push_back(observer); }
  // Calls `f(observer)` on every observer unless halted.
  template <typename F>
  void Notify(F&& f) {
    if (halted_) return;
    for (RunObserver* observer : observers_) f(*observer);
  }

  // The input keys whose calls a reconciler could not tell (answered
  // unknown): their failures are ones the run without faults never has.
  void NoteReconcilerUnknown(const std::string& key) {
    if (!halted_) reconciler_unknown_keys_.insert(key);
  }
  const std::set<std::string>& reconciler_unknown_keys() const { return reconciler_unknown_keys_; }

  // What one subtask's restore rebuilt, kept for `expect: restores:` (only
  // when the scenario states some).
  struct Rebuilt {
    int attempt = 0;
    int32_t subtask = 0;
    RecoveryMarker marker;  // the union list merged: where it read from
    Status status;
    std::vector<std::pair<StateKey, ActionState>> cache;  // after the rebuild, in state key order
  };
  void NoteRebuilt(Rebuilt rebuilt) {
    if (!halted_) rebuilts_.push_back(std::move(rebuilt));
  }
  const std::vector<Rebuilt>& rebuilts() const { return rebuilts_; }
  // What one subtask's store caches right after a completion notice (and
  // its prune), kept for `expect: completions:` (only when the scenario
  // states some).
  struct Pruned {
    std::string checkpoint;
    int32_t subtask = 0;
    std::vector<std::pair<StateKey, ActionState>> cache;  // in state key order
  };
  void NotePruned(Pruned pruned) {
    if (!halted_) pruneds_.push_back(std::move(pruned));
  }
  const std::vector<Pruned>& pruneds() const { return pruneds_; }

  // How often each coverage point fired; named by fault_hits(), once a run.
  void CountFault(const CoveragePoint& point) {
    if (!halted_) ++fault_hits_[point];
  }
  // The counts by name.
  std::map<std::string, int64_t> fault_hits() const;

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
  std::map<CoveragePoint, int64_t> fault_hits_;
  std::set<std::string> reconciler_unknown_keys_;
  std::vector<Rebuilt> rebuilts_;
  std::vector<Pruned> pruneds_;
  const PlanSpec* plan_ = nullptr;  // null: the scenario's own plan
  int attempt_ = 0;
  int lineage_ = 0;
  std::map<int, int> lineage_of_attempt_;
  // Every record the run appended -> who wrote it, and its key.
  struct Writer {
    int lineage = 0;
    int attempt = 0;
    std::string key;
  };
  std::map<std::pair<int32_t, int64_t>, Writer> writer_lineage_;
  std::map<std::pair<int32_t, int64_t>, std::string> foreign_;  // records from outside -> their key
  std::optional<ForeignRead> foreign_read_;
  bool halted_ = false;
  // Last: it refers to log_, corrupted_ and the scenario.
  std::unique_ptr<LogBackend> backend_;
};

}  // namespace durasim
