// Attempt implementation.
#include "model/attempt.h"

#include "model/abandon.h"
#include "model/hand_made_markers.h"
#include "model/key_groups.h"
#include "model/no_store.h"
#include "model/sim_time.h"
#include "model/store_designs.h"

#include "store/check.h"
#include "store/format.h"
#include "store/state_codec.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <exception>

namespace durasim {
const char* AttemptEndName(Attempt::End end) {
  switch (end) {
    case Attempt::End::kFinished: return "finished";
    case Attempt::End::kCrashed: return "crashed";
    case Attempt::End::kFailed: return "failed";
    case Attempt::End::kRestoreRejected: return "restore-rejected";
    case Attempt::End::kStuck: return "stuck";
    case Attempt::End::kError: return "error";
  }
  return "unknown";
}

Attempt::Attempt(World& world, const AttemptSpec& spec, int number, const AttemptParts& parts)
    : world_(world), spec_(spec), number_(number), log_operator_(world) {
  scheduler_ = std::make_unique<Scheduler>(world.clock(), PerturbationOf(world.scenario(), number));
  FaultPlan::Hooks hooks;
  hooks.crash = [this](const std::string& reason) { CrashJob(reason); };
  hooks.cancel_wait = [this](const FaultPoint& put) {
    subtasks_[static_cast<size_t>(put.subtask)].runtime->CancelRunningWait(put.state);
  };
  hooks.corrupt = [this](int32_t partition, int64_t offset) { log_operator_.MarkCorrupted(partition, offset); };
  hooks.fired = [this](size_t armed, FaultKind fault, int64_t nth, const FaultPoint& point) {
    const std::optional<int32_t> subtask = armed_[armed].subtask;
    const std::optional<PutPoint> put = point.put;
    const size_t line = world_.Record(
        "fault.fired", "fault={} nth={}{}{}{}", NameOf(fault), nth,
                                   subtask ? fmt::format(" subtask={}", *subtask) : "",
                                   put ? std::string(" put=") + NameOf(*put) : "", DescribeFaultPoint(point));
    if (world_.halted()) return;  // after a crash nothing fires that anyone sees
    armed_[armed].fired_at = line;
    armed_[armed].hit = point;
    if (subtask) world_.CountFault(CoveragePoint::Reached(WorldFeature::kSubtaskFault));
    if (!armed_[armed].select.empty()) world_.CountFault(CoveragePoint::Reached(WorldFeature::kFaultSelected));
    if (put == PutPoint::kTombstone || put == PutPoint::kCleanup) {
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kTombstoneFault));
    }
    world_.CountFault(CoveragePoint::Fired(fault));
    if (put) world_.CountFault(CoveragePoint::Fired(fault, put));
  };
  faults_ = std::make_unique<FaultPlan>(std::move(hooks));
  std::vector<FaultKind> armed_kinds;
  for (const AttemptStep& step : spec_.steps) {
    if (step.kind == AttemptStep::Kind::kArm) armed_kinds.push_back(step.fault);
  }
  faults_->ExpectArms(armed_kinds);
  const int32_t parallelism = world.scenario().ParallelismOf(number);
  Result<BackendConnection> connection = world.backend().Connect(
      *scheduler_, [this](const LogRecord& record, AppendSeen seen) { OnAppended(record, seen); }, parallelism);
  if (!connection.ok()) {
    connected_ = connection.status();  // Run() reports it before anything runs
    return;
  }
  connection_.backend = &world.backend();
  DURASIM_CHECK_EQ(connection->clients.size(), static_cast<size_t>(parallelism));
  subtasks_.resize(static_cast<size_t>(parallelism));
  for (int32_t i = 0; i < parallelism; ++i) {
    Subtask& subtask = subtasks_[static_cast<size_t>(i)];
    BackendClient& client = connection->clients[static_cast<size_t>(i)];
    subtask.log_client = std::move(client.client);
    subtask.faulty_client = std::make_unique<FaultyLogClient>(*subtask.log_client, *faults_, client.write_faults, i,
                                                              &decoded_values_);
    subtask.store = world.scenario().durable.execution
                        ? parts.make_store(*subtask.faulty_client, StoreOptionsOf(world.scenario(), number))
                        : std::make_unique<NoStore>();
    subtask.runtime = parts.make_runtime(world, *scheduler_, *subtask.store, *faults_,
                                         SubtaskContext{i, parallelism, world.scenario().max_parallelism});
  }
}

void Attempt::CrashJob(const std::string& reason) {
  // The first records the crash and halts the world; the others only stop.
  for (Subtask& subtask : subtasks_) subtask.runtime->Crash(reason);
}

bool Attempt::stopped() const {
  return std::any_of(subtasks_.begin(), subtasks_.end(), [](const Subtask& s) { return s.runtime->stopped(); });
}

bool Attempt::failed() const {
  return std::any_of(subtasks_.begin(), subtasks_.end(), [](const Subtask& s) { return s.runtime->failed(); });
}

std::string Attempt::call_failure_key() const {
  for (const Subtask& subtask : subtasks_) {
    if (subtask.runtime->call_failed()) return subtask.runtime->call_failure_key();
  }
  return "";
}

std::string Attempt::call_failure() const {
  for (const Subtask& subtask : subtasks_) {
    if (subtask.runtime->call_failed()) return subtask.runtime->call_failure();
  }
  return "";
}

std::vector<int64_t> Attempt::UnfinishedInputs() const {
  std::set<int64_t> unfinished;
  for (const Subtask& subtask : subtasks_) subtask.runtime->AddUnfinishedInputs(unfinished);
  const int64_t inputs = static_cast<int64_t>(world_.scenario().inputs.size());
  for (int64_t offset = source_offset_; offset < inputs; ++offset) unfinished.insert(offset);
  return std::vector<int64_t>(unfinished.begin(), unfinished.end());
}

bool Attempt::AllInputsFinished() const {
  if (source_offset_ < static_cast<int64_t>(world_.scenario().inputs.size())) return false;
  return std::all_of(subtasks_.begin(), subtasks_.end(), [](const Subtask& s) { return s.runtime->RunsFinished(); });
}

KeyedStates Attempt::keyed_states() const {
  KeyedStates all;
  for (const Subtask& subtask : subtasks_) {
    for (const auto& [key, keyed] : subtask.runtime->keyed_states()) all.emplace(key, keyed);
  }
  return all;
}

std::vector<int64_t> Attempt::records_scanned_by_subtask() const {
  std::vector<int64_t> scanned;
  for (const Subtask& subtask : subtasks_) scanned.push_back(subtask.store->Stats().records_scanned);
  return scanned;
}

StoreStats Attempt::store_stats() const {
  StoreStats sum;
  for (const Subtask& subtask : subtasks_) {
    const StoreStats stats = subtask.store->Stats();
    sum.cached_states += stats.cached_states;
    sum.bookkeeping_entries += stats.bookkeeping_entries;
    sum.records_scanned += stats.records_scanned;
    sum.snapshot_records += stats.snapshot_records;
    sum.snapshot_bytes += stats.snapshot_bytes;
  }
  return sum;
}

size_t Attempt::bookkeeping_entries() const {
  size_t sum = 0;
  for (const Subtask& subtask : subtasks_) sum += subtask.runtime->bookkeeping_entries();
  return sum;
}

void Attempt::ReadInputs(int64_t count) {
  const std::vector<InputSpec>& inputs = world_.scenario().inputs;
  const int32_t parallelism = this->parallelism();
  for (int64_t read = 0; count < 0 || read < count; ++read) {
    if (source_offset_ >= static_cast<int64_t>(inputs.size())) break;
    const InputSpec& spec = inputs[static_cast<size_t>(source_offset_)];
    const InputRecord input{source_offset_++, spec.key, spec.value};
    const int32_t owner = SubtaskOfKey(input.key, world_.scenario().max_parallelism, parallelism);
    world_.Record("input.read", "offset={} key={} value={}{}", input.offset, Quoted{input.key}, input.value,
                  parallelism == 1 ? "" : fmt::format(" subtask={}", owner));
    subtasks_[static_cast<size_t>(owner)].runtime->ProcessInput(input);
  }
}

Checkpoint Attempt::NewCheckpoint(const std::string& id) const {
  return Checkpoint{id,           Checkpoint::Phase::kTaken, number_, {}, {}, {}, {}, source_offset_,
                    parallelism(), world_.lifecycle().incarnation(), "", ""};
}

bool Attempt::AddSnapshot(Checkpoint& checkpoint, size_t subtask, std::optional<AgentRuntime::Snapshot> snapshot,
                          size_t& queued) {
  if (!snapshot.has_value()) {
    // Crashed at the barrier, or this subtask declined (no marker, or its
    // snapshot writes failed): the checkpoint never completes, and the
    // subtasks that snapshotted drop their map of it, as on an abort. A
    // declined one is saved as failed, so that a restore of it can say why.
    if (stopped()) return false;
    for (size_t done = 0; done < subtask; ++done) subtasks_[done].runtime->DropCheckpoint(checkpoint.id);
    checkpoint.phase = Checkpoint::Phase::kFailed;
    checkpoint.failure =
        fmt::format("subtask {} declined it: {}", subtask, subtasks_[subtask].runtime->checkpoint_failure());
    world_.Record("checkpoint.failed", "id={} reason={:?}", checkpoint.id, checkpoint.failure);
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kCheckpointFailed));
    world_.checkpoints().Save(std::move(checkpoint));
    return false;
  }
  for (auto& [key, keyed] : snapshot->keyed) checkpoint.keyed.emplace(key, std::move(keyed));
  checkpoint.completed.insert(snapshot->completed.begin(), snapshot->completed.end());
  checkpoint.markers.push_back(std::move(snapshot->marker));
  checkpoint.processing_keys.push_back(std::move(snapshot->processing_keys));
  queued += snapshot->queued_tasks;
  return true;
}

boost::asio::awaitable<void> Attempt::TakeCheckpoint(const std::string& id) {
  Checkpoint checkpoint = NewCheckpoint(id);
  size_t queued = 0;
  for (size_t i = 0; i < subtasks_.size(); ++i) {
    // What the store writes while it snapshots is a rewrite to the faults.
    subtasks_[i].faulty_client->SetSnapshotWrites(true);
    snapshotting_ = static_cast<int>(i);
    std::optional<AgentRuntime::Snapshot> snapshot = co_await subtasks_[i].runtime->TakeCheckpoint(id);
    snapshotting_ = -1;
    subtasks_[i].faulty_client->SetSnapshotWrites(false);
    if (!AddSnapshot(checkpoint, i, std::move(snapshot), queued)) co_return;
  }
  SaveCheckpoint(std::move(checkpoint), queued);
}

void Attempt::SaveCheckpoint(Checkpoint taking, size_t queued) {
  const std::string markers = taking.markers.size() == 1 ? fmt::format("marker={}", taking.markers[0])
                                                         : fmt::format("markers={}", taking.markers);
  const std::string id = taking.id;
  world_.checkpoints().Save(std::move(taking));
  // The saved one, whose union lists are read below (the storage never
  // drops a checkpoint, so the reference stays valid).
  const Checkpoint& checkpoint = *world_.checkpoints().Find(id);
  const size_t taken = world_.Record(
      "checkpoint.taken", "id={} {} source={} queued_tasks={}", id, markers, source_offset_, queued);
  world_.Notify([&](RunObserver& o) { o.OnCheckpointTaken(id, taken); });
  for (size_t i = 0; i < checkpoint.processing_keys.size(); ++i) {
    const std::vector<std::string>& keys = checkpoint.processing_keys[i];
    std::vector<int32_t> owners;
    for (const std::string& key : keys) owners.push_back(SubtaskOfKey(key, world_.scenario().max_parallelism, parallelism()));
    world_.Notify([&](RunObserver& o) {
      o.OnProcessingKeysSnapshotted(static_cast<int32_t>(i), keys, owners, taken);
    });
  }
  faults_->OnCheckpointTaken();
  for (Subtask& subtask : subtasks_) subtask.runtime->SnapshotTaken(id);
}

Checkpoint* Attempt::TakenCheckpoint(const std::string& id) {
  Checkpoint* checkpoint = world_.checkpoints().Find(id);
  if (checkpoint != nullptr &&
      (checkpoint->phase == Checkpoint::Phase::kTaken || checkpoint->phase == Checkpoint::Phase::kSubsumed)) {
    return checkpoint;
  }
  const bool failed = checkpoint != nullptr && checkpoint->phase == Checkpoint::Phase::kFailed;
  world_.Record("checkpoint.ignored", "id={} reason={}", id, failed ? "failed" : "not-taken");
  return nullptr;
}

void Attempt::CompleteCheckpoint(const std::string& id, bool notify) {
  const Checkpoint* taken = TakenCheckpoint(id);
  if (taken == nullptr) return;
  if (taken->phase == Checkpoint::Phase::kSubsumed) {
    // Never in a parsed file (the parser rejects it); a harness variant
    // that adds checkpoints (compare-stores' frequent-checkpoints) can
    // complete one after a later one: Flink's coordinator dropped it.
    world_.Record("checkpoint.ignored", "id={} reason=subsumed by={}", id, taken->subsumed_by);
    return;
  }
  world_.checkpoints().MarkCompleted(id);
  world_.Record("checkpoint.completed", "id={}{}", id, notify ? "" : " notified=false");
  if (!notify) {
    // Flink's notifications are best-effort: the operator never hears of
    // this one; a later completion releases its entry.
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kNotificationSkipped));
    return;
  }
  for (Subtask& subtask : subtasks_) subtask.runtime->NotifyCheckpointComplete(id);
}

void Attempt::AbortCheckpoint(const std::string& id) {
  Checkpoint* checkpoint = TakenCheckpoint(id);
  if (checkpoint == nullptr) return;
  // A subsumed checkpoint's abort notice (Flink sends one for a pending
  // checkpoint it drops as subsumed): its entry is already released.
  checkpoint->phase = Checkpoint::Phase::kAborted;
  const size_t aborted = world_.Record("checkpoint.aborted", "id={}", id);
  for (Subtask& subtask : subtasks_) subtask.runtime->NotifyCheckpointAborted(id, aborted);
}

boost::asio::awaitable<void> Attempt::AcquireMailboxes() {
  for (Subtask& subtask : subtasks_) {
    if (!subtask.runtime->mailbox().TryAcquire()) co_await subtask.runtime->mailbox().Acquire(true);
  }
}

void Attempt::ReleaseMailboxes() {
  for (Subtask& subtask : subtasks_) subtask.runtime->mailbox().Release();
}

boost::asio::awaitable<bool> Attempt::DrainForBarrier(const std::string& id) {
  if (world_.scenario().durable.engine != ExecutionEngine::kWorkerPool) co_return false;
  bool drains = false;
  for (Subtask& subtask : subtasks_) drains = subtask.runtime->BeginDrain(id) || drains;
  if (!drains) co_return false;
  // The pulled tasks need the mailbox to commit; no new one starts.
  ReleaseMailboxes();
  co_await WaitIdle();
  co_await AcquireMailboxes();
  co_return true;
}

boost::asio::awaitable<void> Attempt::WaitIdle() {
  // New work comes only from the driver or from a subtask's own tasks, so
  // once each has been idle after the driver let go, all are.
  for (Subtask& subtask : subtasks_) co_await subtask.runtime->WaitIdle();
}

void Attempt::RunWithoutFaults() {
  DURASIM_CHECK(std::none_of(spec_.steps.begin(), spec_.steps.end(),
                             [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kArm; }));
  faults_->Seal();
  without_faults_ = true;
}

void Attempt::OnAppended(const LogRecord& record, AppendSeen seen) {
  // The run wrote it, also when a crash halted the world mid-handler.
  world_.NoteWritten(record, seen == AppendSeen::kDiscovered ? number_ - 1 : number_);
  if (!world_.halted()) world_.lifecycle().NoteAppend(record, world_.now());
  const size_t index = world_.Record(AppendSeenTraceKind(seen), "partition={} offset={} key={}",
                                     record.partition, record.offset, Quoted{record.key});
  if (without_faults_) {
    world_.Notify([&](RunObserver& o) { o.OnRecordAppended(record, nullptr, index); });
    return;
  }
  // Valid until the next decode: nothing below produces.
  const Result<DecodedState>& decoded = decoded_values_.Decode(record.value);
  const DecodedState* state = decoded.ok() ? &decoded.value() : nullptr;
  world_.Notify([&](RunObserver& o) { o.OnRecordAppended(record, state, index); });
  if (seen == AppendSeen::kAppended) {
    FaultPoint point = PutFaultPoint(record.key, record.value, WriterOf(record), &decoded_values_);
    // Appended while its writer snapshots: a rewrite (the model appends at
    // the flush, before the acknowledgement the snapshot awaits).
    if (snapshotting_ >= 0 && point.subtask == snapshotting_) point = AsRewrite(std::move(point));
    faults_->OnPersisted(record.partition, record.offset, point);
  }
}

int Attempt::WriterOf(const LogRecord& record) {
  // Every record is an action state of some input key (tombstones too), and
  // only the key's owner writes it.
  if (std::optional<std::string> cleaned = ParseCleanupKey(record.key)) {
    return SubtaskOfKey(*cleaned, world_.scenario().max_parallelism, parallelism());
  }
  const Result<StateKey>& key = decoded_values_.Key(record.key);
  if (!key.ok()) return -1;
  return SubtaskOfKey(key->key, world_.scenario().max_parallelism, parallelism());
}

bool Attempt::RecreateTopic() {
  Status recreated = log_operator_.RecreateTopic([this] {
    CrashJob("recreate_topic");
    connection_.Close();
  });
  if (recreated.ok()) return true;
  // The crash halted the world: the error is not traced.
  error_message_ = recreated.message();
  error_ = true;
  scheduler_->Stop();
  return false;
}

bool Attempt::Operated(const Status& done) {
  if (!done.ok()) Error(done.message());
  return done.ok();
}

void Attempt::Error(const std::string& message) {
  world_.Record("error", message);
  error_message_ = message;
  error_ = true;
  scheduler_->Stop();
}

Attempt::~Attempt() {
  connection_.Close();
  // The scheduler goes first: dropping its handlers unwinds suspended
  // coroutines, whose frames still refer to the runtime and the store.
  scheduler_.reset();
}

std::string Attempt::RestoreId() const {
  DURASIM_CHECK(spec_.restore.has_value());
  const CheckpointStorage& storage = world_.checkpoints();
  return *spec_.restore == kRestoreLatest     ? storage.latest_completed()
         : *spec_.restore == kRestorePrevious ? storage.previous_completed()
                                              : *spec_.restore;
}

int Attempt::Lineage() const {
  if (!spec_.restore.has_value()) return number_;  // a fresh start: a new job
  const Checkpoint* checkpoint = world_.checkpoints().Find(RestoreId());
  if (checkpoint == nullptr || world_.LineageOf(checkpoint->attempt) == 0) return number_;  // the restore fails
  return world_.LineageOf(checkpoint->attempt);
}

bool Attempt::Restore(End& end) {
  CheckpointStorage& storage = world_.checkpoints();
  const std::string id = RestoreId();
  const Checkpoint* checkpoint = storage.Find(id);
  if (checkpoint != nullptr && checkpoint->phase == Checkpoint::Phase::kFailed) {
    Error(fmt::format("checkpoint {} failed when attempt {} took it ({}); it never completed and cannot be restored",
                      id, checkpoint->attempt, checkpoint->failure));
    end = End::kError;
    return false;
  }
  if (checkpoint == nullptr || checkpoint->phase != Checkpoint::Phase::kCompleted) {
    Error(fmt::format("checkpoint {} ({}) is not completed; cannot restore", *spec_.restore, id));
    end = End::kError;
    return false;
  }
  if (id != storage.latest_completed()) world_.CountFault(CoveragePoint::Made(ScriptFault::kRestoreOlder));
  if (!world_.log().IsUp(world_.now())) {
    // Nothing runs before the restore: wait for the broker.
    world_.Record("restore.wait", "broker down until {}", FormatSimTime(world_.log().down_until()));
    world_.clock().now = world_.log().down_until();
  }
  if (world_.log().FetchesSlow(world_.now())) world_.CountFault(CoveragePoint::Happened(LogEvent::kSlowFetch));
  if (world_.scenario().durable.execution && !checkpoint->markers.empty() &&
      checkpoint->topic_incarnation == world_.lifecycle().incarnation() &&
      static_cast<int32_t>(MinimumMarker(checkpoint->markers).offsets.size()) < world_.lifecycle().partitions()) {
    const bool rejects = world_.scenario().store_options.added_partitions == AddedPartitions::kReject;
    world_.CountFault(CoveragePoint::Happened(rejects ? LogEvent::kAddedPartitionsRejected
                                                      : LogEvent::kAddedPartitionsRestored));
  }
  if (const bool now = world_.scenario().TombstonesIn(number_);
      now != world_.scenario().TombstonesIn(checkpoint->attempt)) {
    // A configuration migration: the store that took the marker and the one
    // that reads it disagree on tombstones (the log may hold some either way).
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kTombstonesMigrated));
    world_.Record("restore.migrated", "checkpoint={} tombstones={}", id, now ? "on" : "off");
  }
  if (checkpoint->parallelism != parallelism()) {
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kRescale));
    world_.Record("rescale", "checkpoint={} from={} to={}", id, checkpoint->parallelism, parallelism());
  }
  // Keyed state goes to the owner of each key's key group; the union list
  // hands every subtask every marker (AgentRuntime::Restore).
  source_offset_ = checkpoint->source_offset;
  rebuilt_ = true;
  std::optional<AgentRuntime::HandMadeList> hand_made;
  if (spec_.markers.has_value()) {
    hand_made = HandMadeList(*checkpoint);
    if (!hand_made) {
      end = End::kError;
      return false;
    }
  }
  if (world_.scenario().durable.execution) {  // off: nothing is read
    // The records a rebuild reads lie from the list it is handed.
    log_operator_.NoteForeignReads(*checkpoint, hand_made ? hand_made->markers : checkpoint->markers);
  }
  return RestoreSubtasks(*checkpoint, hand_made ? &*hand_made : nullptr, end);
}

bool Attempt::RestoreSubtasks(const Checkpoint& checkpoint, const AgentRuntime::HandMadeList* hand_made, End& end) {
  // The steps during the rebuild act once the last subtask's rebuild has
  // captured the log's end, before it reads (the others have read theirs:
  // no rebuild of this restore reads what they append); a restore that
  // reads nothing there (durable execution off, a marker rejected before
  // any read) has them act after it.
  bool during_done = spec_.during_rebuild.empty();
  auto during = [this, &during_done](const char* when) {
    during_done = true;
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kStepDuringRebuild));
    world_.Record("restore.during_rebuild", "steps={} when={}", spec_.during_rebuild.size(), when);
    for (const AttemptStep& step : spec_.during_rebuild) {
      if (!Apply(step)) return;
    }
  };
  FaultyLogClient& last = *subtasks_.back().faulty_client;
  if (!during_done) last.BeforeNextRead([&during] { during("reading"); });
  bool restored = true;
  for (Subtask& subtask : subtasks_) {
    restored = subtask.runtime->Restore(checkpoint, hand_made).ok();
    if (!restored) break;
  }
  last.BeforeNextRead(nullptr);
  if (!during_done) during("after");
  if (!restored) {
    end = End::kRestoreRejected;
    return false;
  }
  if (error_) {  // a step during the rebuild failed
    end = End::kError;
    return false;
  }
  return true;
}

std::optional<AgentRuntime::HandMadeList> Attempt::HandMadeList(const Checkpoint& checkpoint) {
  Result<std::vector<PartitionOffsets>> offsets = subtasks_.front().log_client->Offsets();
  if (!offsets.ok()) {
    Error(fmt::format("reading the log's end offsets for the hand-made markers failed: {}", offsets.status().ToString()));
    return std::nullopt;
  }
  std::vector<int64_t> ends;
  for (const PartitionOffsets& partition : *offsets) ends.push_back(partition.end);
  const RecoveryMarker own = MinimumMarker(checkpoint.markers);
  AgentRuntime::HandMadeList list;
  list.markers = HandMadeMarkers(*spec_.markers, own, ends);
  const bool tombstones = world_.scenario().TombstonesIn(number_) && world_.scenario().store != StoreDesign::kFluss;
  list.unusable = WhyHandMadeUnusable(list.markers, own.topic, tombstones, ends);
  std::vector<std::string> described;
  for (const RecoveryMarker& marker : list.markers) described.push_back(DescribeHandMadeMarker(marker, own.topic));
  world_.Record("restore.hand_made", "checkpoint={} markers=[{}]", checkpoint.id,
                fmt::format("{}", fmt::join(described, ", ")));
  return list;
}

Scheduler::RunEnd Attempt::Spawn(boost::asio::awaitable<void> script, SimDuration time_bound) {
  boost::asio::co_spawn(scheduler_->executor(), std::move(script), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);
  });
  return scheduler_->Run(world_.now() + time_bound);
}

Attempt::End Attempt::Run(SimDuration time_bound) {
  world_.BeginAttempt(number_);
  if (parallelism() > 1) world_.CountFault(CoveragePoint::Reached(WorldFeature::kParallelSubtasks));
  world_.Record("attempt.start", spec_.restore ? fmt::format("restore={}", *spec_.restore) : "fresh");
  if (!connected_.ok()) {
    Error(fmt::format("cannot connect to the log of backend {}: {}", world_.backend().name(), connected_.ToString()));
    return End::kError;
  }
  if (Status discovered = world_.backend().DiscoverAppends(); !discovered.ok()) {
    Error(fmt::format("reading the log of backend {} failed: {}", world_.backend().name(), discovered.ToString()));
    return End::kError;
  }
  // Discovered records are the attempt before's; from here on, this one's.
  world_.EnterLineage(Lineage());
  if (number_ > 1 && !spec_.restore.has_value()) world_.CountFault(CoveragePoint::Reached(WorldFeature::kFreshLineage));
  // Retention runs while the agent is down too.
  if (!Operated(log_operator_.ApplyRetention())) return End::kError;
  if (spec_.restore.has_value()) {
    End end = End::kError;
    if (!Restore(end)) return end;
  } else {
    for (Subtask& subtask : subtasks_) subtask.runtime->StartFresh();
  }
  Scheduler::RunEnd end = Scheduler::RunEnd::kStopped;
  try {
    end = Spawn(Drive(), time_bound);
  } catch (const std::exception& escaped) {
    // A coroutine of the script or the runtime threw: the attempt cannot go
    // on, and the run ends in error naming what was thrown.
    Error(fmt::format("an exception escaped a coroutine of attempt {}: {}", number_, escaped.what()));
  } catch (const RunAbandoned&) {
    throw;  // not the attempt's error: the run is abandoned (model/abandon.h)
  } catch (...) {
    Error(fmt::format("an exception escaped a coroutine of attempt {}: not a std::exception", number_));
  }
  if (error_) return End::kError;
  if (failed()) return End::kFailed;
  if (stopped()) return End::kCrashed;
  if (script_done_) return End::kFinished;
  // The trace keeps its words (pinned hashes); the reason names the bound.
  stuck_line_ = world_.Record("attempt.stuck", end == Scheduler::RunEnd::kDeadline ? "simulated-time bound passed"
                                              : end == Scheduler::RunEnd::kBudget ? "handler budget exhausted"
                                                                                  : "no runnable work left");
  stuck_reason_ =
      end == Scheduler::RunEnd::kDeadline
          ? fmt::format("the simulated-time bound of {} ms per attempt (RunOptions::attempt_time_bound) passed",
                        std::chrono::duration_cast<std::chrono::milliseconds>(time_bound).count())
      : end == Scheduler::RunEnd::kBudget
          ? fmt::format("the handler budget of {} handlers per attempt (Scheduler::kHandlersMax) ran out",
                        Scheduler::kHandlersMax)
          : std::string("no runnable work was left (every task waits for something that never comes)");
  return End::kStuck;
}

bool Attempt::TakeFinalCheckpoint(const std::string& id) {
  DURASIM_CHECK(script_done_);
  DURASIM_CHECK(!error_);
  faults_->DisarmAll();
  // The script is done and the subtasks idle, so the mailboxes are free and
  // the step runs as a driver step, at once. The scheduler stays stopped:
  // work the checkpoint would start (tombstone writes) does not run, as at
  // the end of every attempt.
  for (size_t i = 0; i < subtasks_.size(); ++i) {
    if (!subtasks_[i].runtime->mailbox().TryAcquire()) {
      for (size_t held = 0; held < i; ++held) subtasks_[held].runtime->mailbox().Release();
      Error(fmt::format("the final checkpoint {}: the mailbox of subtask {} is still held at the end of the script",
                        id, i));
      return false;
    }
  }
  Checkpoint checkpoint = NewCheckpoint(id);
  size_t queued = 0;
  bool snapshotted = true;
  for (size_t i = 0; i < subtasks_.size() && snapshotted; ++i) {
    snapshotted = AddSnapshot(checkpoint, i, subtasks_[i].runtime->TakeFinalCheckpoint(id), queued);
  }
  if (snapshotted) SaveCheckpoint(std::move(checkpoint), queued);
  CompleteCheckpoint(id, true);
  ReleaseMailboxes();
  return true;
}

boost::asio::awaitable<void> Attempt::Drive() {
  // The driver takes the mailboxes before the restored tasks queue for them:
  // they queue ahead of any new input, and the script's first steps (a
  // checkpoint before dispatch, say) run before any of them.
  co_await AcquireMailboxes();
  bool holding = true;
  for (Subtask& subtask : subtasks_) subtask.runtime->ResumeRestoredTasks();
  for (const AttemptStep& step : spec_.steps) {
    const bool lets_runtime_work = step.kind == AttemptStep::Kind::kRun || step.kind == AttemptStep::Kind::kRunFor;
    if (lets_runtime_work) {
      if (holding) ReleaseMailboxes();
      holding = false;
      if (step.kind == AttemptStep::Kind::kRun) {
        co_await WaitIdle();
      } else {
        co_await scheduler_->AsyncSleepInScriptOrder(Ms(step.duration_ms), boost::asio::use_awaitable);
      }
      continue;
    }
    if (!holding) co_await AcquireMailboxes();
    holding = true;
    if (!Operated(log_operator_.ApplyRetention())) co_return;
    // A checkpoint may wait for its snapshot writes (kafka-rewrite),
    // holding the mailboxes, and before them (worker_pool) for the tasks
    // workers pulled; every other step acts at once.
    if (step.kind == AttemptStep::Kind::kCheckpoint) {
      const bool drained = co_await DrainForBarrier(step.checkpoint);
      if (stopped()) co_return;
      co_await TakeCheckpoint(step.checkpoint);
      if (drained && !stopped()) {
        for (Subtask& subtask : subtasks_) subtask.runtime->EndDrain();
      }
    } else if (!Apply(step)) {
      co_return;
    }
    if (stopped()) co_return;
  }
  if (holding) ReleaseMailboxes();
  co_await WaitIdle();
  script_done_ = true;
  world_.Record("attempt.end", "script done, runtime idle");
  scheduler_->Stop();
}

bool Attempt::Apply(const AttemptStep& step) {
  switch (step.kind) {
    case AttemptStep::Kind::kRead:
      ReadInputs(step.count);
      return true;
    case AttemptStep::Kind::kCheckpoint:
      DURASIM_CHECK_MSG(false, "a checkpoint step is taken by Drive (it may wait)");
      return false;
    case AttemptStep::Kind::kComplete: {
      CompleteCheckpoint(step.checkpoint, step.notify);
      // The harness's record of committed cleanups: a checkpoint completed
      // in the incarnation that took it, and notified, pruned (with
      // tombstones) up to its boundaries.
      const Checkpoint* completed = world_.checkpoints().Find(step.checkpoint);
      if (world_.scenario().TombstonesIn(number_) && step.notify && completed != nullptr && completed->attempt == number_ &&
          completed->phase == Checkpoint::Phase::kCompleted) {
        world_.lifecycle().NoteCommittedPrune(completed->completed);
      }
      return true;
    }
    case AttemptStep::Kind::kAbort:
      world_.CountFault(CoveragePoint::Made(ScriptFault::kCheckpointAbort));
      AbortCheckpoint(step.checkpoint);
      return true;
    case AttemptStep::Kind::kCrash:
      world_.CountFault(CoveragePoint::Made(ScriptFault::kCrashStep));
      CrashJob("crash step");
      return true;
    case AttemptStep::Kind::kArm: {
      const size_t index = faults_->Arm(step.fault, step.nth, step.subtask, step.select);
      DURASIM_CHECK_EQ(index, armed_.size());
      armed_.push_back(ArmedFault{number_, step.fault, step.nth, step.subtask, step.select, step.pos, std::nullopt, {}});
      world_.Record("fault.armed", "fault={} nth={}{}", NameOf(step.fault), step.nth,
                    step.subtask ? fmt::format(" subtask={}", *step.subtask) : "");
      return true;
    }
    case AttemptStep::Kind::kBrokerDown:
      if (Status down = world_.backend().TakeBrokerDown(); !down.ok()) {
        Error(fmt::format("broker_down on backend {}: {}", world_.backend().name(), down.ToString()));
        return false;
      }
      world_.CountFault(CoveragePoint::Made(ScriptFault::kBrokerDown));
      world_.log().SetDownUntil(world_.now() + Ms(step.duration_ms));
      world_.Record("broker.down", "until={}", FormatSimTime(world_.log().down_until()));
      return true;
    case AttemptStep::Kind::kCorrupt:
      return Operated(log_operator_.Corrupt(step.partition, step.offset));
    case AttemptStep::Kind::kDeleteRecords:
      return Operated(log_operator_.DeleteRecords(step.partition, step.offset));
    case AttemptStep::Kind::kRecreateTopic:
      return RecreateTopic();
    case AttemptStep::Kind::kCompact:
      return Operated(log_operator_.Compact());
    case AttemptStep::Kind::kAddPartitions:
      return Operated(log_operator_.AddPartitions(static_cast<int32_t>(step.count)));
    case AttemptStep::Kind::kForeign:
      return Operated(log_operator_.AppendForeign(step.partition, step.foreign));
    case AttemptStep::Kind::kSlowFetch:
      world_.log().SetSlowFetchUntil(world_.now() + Ms(step.duration_ms));
      world_.Record("log.slow_fetch", "until={}", FormatSimTime(world_.log().slow_fetch_until()));
      return true;
    case AttemptStep::Kind::kRun:
    case AttemptStep::Kind::kRunFor:
      return true;  // handled by Drive
  }
  return true;
}

}  // namespace durasim
