// AgentRuntime implementation: inputs, runs, tasks, puts, checkpoints. The
// durable-call path is in agent_runtime_calls.cc, the identity hashes in identity.cc.
#include "model/agent_runtime.h"

#include "store/check.h"

#include <fmt/ranges.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <utility>

#include "model/key_groups.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

namespace this_coro = boost::asio::this_coro;

// The digest of a state value that the trace and the observers see; 0 in a
// world that keeps no events (the run without faults, whose one observer
// reads outputs only), which would spend a digest per put and get on nothing.
uint64_t ValueDigest(const World& world, const StateKey& k, const ActionState& state) {
  return world.keeps_events() ? StateDigest(k, state) : 0;
}

}  // namespace

AgentRuntime::AgentRuntime(World& world, Scheduler& scheduler, ActionStateStore& store, FaultPlan& faults,
                           const SubtaskContext& subtask)
    : store_(store), world_(world), scheduler_(scheduler), faults_(faults), mailbox_(scheduler),
      idle_signal_(scheduler), subtask_(subtask) {
  if (subtask_.parallelism > 1) store_.SetOwnership([this](const std::string& key) { return Owns(key); });
}

bool AgentRuntime::Owns(const std::string& key) const {
  return SubtaskOfKey(key, subtask_.max_parallelism, subtask_.parallelism) == subtask_.index;
}

std::string AgentRuntime::Tag() const {
  return subtask_.parallelism == 1 ? std::string() : fmt::format("subtask={} ", subtask_.index);
}

KeyedStates AgentRuntime::RestoredKeyedStates(const Checkpoint& checkpoint) const {
  KeyedStates owned;
  for (const auto& [key, keyed] : checkpoint.keyed) {
    if (Owns(key)) owned.emplace(key, keyed);
  }
  return owned;
}

std::vector<std::string> AgentRuntime::ProcessingKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, keyed] : keyed_) {
    if (keyed.run_input_offset >= 0) keys.push_back(key);
  }
  return keys;
}

std::vector<std::string> AgentRuntime::RestoredProcessingKeys(const Checkpoint& checkpoint) const {
  std::set<std::string> owned;
  for (const std::vector<std::string>& keys : checkpoint.processing_keys) {
    for (const std::string& key : keys) {
      if (Owns(key)) owned.insert(key);
    }
  }
  return std::vector<std::string>(owned.begin(), owned.end());
}

// The harness knows whether a log event made the marker stale: then the
// store must reject it; otherwise it must accept it. Judged on the log the
// rebuild begins with: what a step during the rebuild does to it
// (`restore: {during_rebuild}`) comes after the rebuild captured its end.
// fluss rejects a marker without every bucket (LogLifecycle::WhyNotEveryPartition).
std::optional<std::string> AgentRuntime::ExpectedRejection(const Checkpoint& checkpoint, const RecoveryMarker& marker,
                                                           const HandMadeList* hand_made, bool reads) {
  std::optional<std::string> stale;
  if (hand_made != nullptr && reads) {
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kHandMadeMarkers));
    stale = hand_made->unusable;
  }
  if (reads && !stale && world_.scenario().store == StoreDesign::kFluss) {
    stale = world_.lifecycle().WhyNotEveryPartition(marker);
  }
  if (reads && !stale && world_.scenario().store_options.added_partitions == AddedPartitions::kReject) {
    stale = world_.lifecycle().WhyPartitionsAdded(marker);
  }
  if (reads && !stale) {
    // A list of version-1 markers only (written by hand) holds no boundaries,
    // so the store judges the tombstones it reads against none.
    const bool legacy_only =
        hand_made != nullptr && !hand_made->markers.empty() &&
        std::all_of(hand_made->markers.begin(), hand_made->markers.end(),
                    [](const RecoveryMarker& m) { return m.version == RecoveryMarker::kLegacyVersion; });
    stale = world_.lifecycle().WhyStale(marker, checkpoint.topic_incarnation,
                                        legacy_only             ? CompletedBoundaries{}
                                        : marker.completed.empty() ? checkpoint.completed
                                                                   : marker.completed);
  }
  return stale;
}

Status AgentRuntime::Restore(const Checkpoint& checkpoint, const HandMadeList* hand_made) {
  keyed_ = RestoredKeyedStates(checkpoint);
  restored_processing_keys_ = RestoredProcessingKeys(checkpoint);
  const std::vector<RecoveryMarker> markers = hand_made != nullptr ? hand_made->markers : RebuildMarkers(checkpoint);
  if (hand_made == nullptr) {
    for (const RecoveryMarker& own : markers) {
      // One job's subtasks all write to the one topic with one store version.
      DURASIM_CHECK(own.version == markers.front().version && own.topic == markers.front().topic);
    }
  }
  // The harness's view of where the rebuild reads: the list's minimum.
  const RecoveryMarker marker = MinimumMarker(markers);
  // Durable execution off: nothing is read, so nothing can be in range or stale.
  const bool reads = world_.scenario().durable.execution;
  if (!reads) world_.CountFault(CoveragePoint::Reached(WorldFeature::kRestoredWithoutStore));
  bool corrupt_in_range = false;
  if (reads) {
    for (const auto& [partition, offset] : world_.corrupted()) {
      // The rebuild reads every partition of the topic: a partition the
      // marker names from its offset, one added after the checkpoint from
      // offset 0 (KafkaActionStateStore::ReadFromMarker), so a corrupt record
      // there is in range too (seed 12182).
      auto marked = marker.offsets.find(partition);
      const int64_t from = marked != marker.offsets.end() ? marked->second : 0;
      if (offset >= from) corrupt_in_range = true;
    }
  }
  const std::optional<std::string> stale = ExpectedRejection(checkpoint, marker, hand_made, reads);
  world_.Notify([&](RunObserver& o) { o.OnRebuildStart(subtask_.index); });
  const Status rebuilt = store_.RebuildFromList(markers);
  if (stale) {
    world_.CountFault(CoveragePoint::Happened(LogEvent::kStaleMarker));
    world_.Record("restore.stale", "{}checkpoint={} {}", Tag(), checkpoint.id, *stale);
  }
  const StoreStats stats = store_.Stats();
  const size_t index = world_.Record(
      rebuilt.ok() ? "restore" : "restore.rejected",
      "{}checkpoint={} marker={} source={} scanned={} cached={}{}", Tag(), checkpoint.id, marker,
                  checkpoint.source_offset, stats.records_scanned, stats.cached_states,
                  rebuilt.ok() ? "" : " error=" + rebuilt.ToString());
  restore_line_ = index;
  world_.Notify([&](RunObserver& o) { o.OnRebuild(rebuilt, stale.has_value(), corrupt_in_range, index); });
  if (rebuilt.ok() && !stale && world_.scenario().store == StoreDesign::kFluss) {
    world_.CountFault(CoveragePoint::Happened(StoreEvent::kBucketsRebuilt));
  }
  if (reads && rebuilt.ok() && HasLegacyMarker(markers)) world_.CountFault(CoveragePoint::Reached(WorldFeature::kLegacyMarkerRead));
  if (!world_.scenario().expect.restores.empty()) {
    world_.NoteRebuilt(World::Rebuilt{world_.attempt(), subtask_.index, marker, rebuilt, store_.CachedStates()});
  }
  if (rebuilt.ok()) {
    const RestoreView view{checkpoint.id, checkpoint.completed, checkpoint.source_offset, marker.offsets,
                           static_cast<int64_t>(stats.records_scanned), subtask_.index};
    world_.Notify([&](RunObserver& o) { o.OnRestore(view, index); });
  }
  return rebuilt;
}

void AgentRuntime::ResumeRestoredTasks() {
  for (const std::string& key : restored_processing_keys_) {
    if (!ResumesKey(key)) continue;
    const int32_t owner = SubtaskOfKey(key, subtask_.max_parallelism, subtask_.parallelism);
    world_.Notify([&](RunObserver& o) { o.OnKeyResumed(key, subtask_.index, owner, restore_line_); });
    auto keyed = keyed_.find(key);
    if (keyed != keyed_.end() && !keyed->second.tasks.empty()) ScheduleKey(key);
  }
}

void AgentRuntime::ProcessInput(const InputRecord& input) {
  DURASIM_CHECK(mailbox_.held());
  DURASIM_CHECK_MSG(Owns(input.key), "input " + std::to_string(input.offset) + " routed to a subtask that does not own its key");
  KeyedState& keyed = keyed_[input.key];
  if (keyed.run_input_offset >= 0) {
    keyed.pending_inputs.push_back(input);
    world_.Record("input.queued", "offset={} key={:?} behind={}", input.offset, input.key,
                  keyed.run_input_offset);
    return;
  }
  StartRun(keyed, input);
}

void AgentRuntime::StartRun(KeyedState& keyed, const InputRecord& input) {
  keyed.seq += 1;
  keyed.run_input_offset = input.offset;
  keyed.run_outputs = 0;
  const Event event{kInputEventType, input.value, InputEventHash(input.value)};
  const std::vector<ActionSpec>& actions = world_.actions();
  for (size_t i = 0; i < actions.size(); ++i) {
    for (const std::string& type : actions[i].on) {
      if (type == kInputEventType) keyed.tasks.push_back(ActionTask{keyed.seq, input.offset, i, event});
    }
  }
  world_.Record("run.start",
                "key={:?} seq={} input={} tasks={}", input.key, keyed.seq, input.offset, keyed.tasks.size());
  ScheduleKey(input.key);
}

void AgentRuntime::ScheduleKey(const std::string& key) {
  if (stopped_ || keys_with_letter_.count(key) > 0) return;
  KeyedState& keyed = keyed_[key];
  // A worker-pool barrier waits: the key's next task stays queued.
  if (draining_ && !keyed.tasks.empty()) {
    held_by_drain_.insert(key);
    return;
  }
  if (keyed.tasks.empty()) {
    // A run with no (more) tasks is finished.
    if (keyed.run_input_offset < 0) return;
    keyed.last_completed_seq = keyed.seq;
    world_.Record("run.finish", "key={:?} seq={} input={}", key, keyed.seq, keyed.run_input_offset);
    keyed.run_input_offset = -1;
    if (!keyed.pending_inputs.empty()) {
      const InputRecord next = keyed.pending_inputs.front();
      keyed.pending_inputs.pop_front();
      StartRun(keyed, next);
    }
    return;
  }
  keys_with_letter_.insert(key);
  const uint64_t letter = next_letter_++;
  DURASIM_CHECK_EQ(letter, letter_signals_.size() + 1);
  auto slot = letter_signals_.emplace_back().slot();
  ++live_letters_;
  boost::asio::co_spawn(scheduler_.executor(), KeyLetter(key, letter),
                        boost::asio::bind_cancellation_slot(slot, [](std::exception_ptr error) {
                          if (error) std::rethrow_exception(error);  // Attempt::Run ends the attempt in error naming it
                        }));
}

boost::asio::awaitable<void> AgentRuntime::KeyLetter(std::string key, uint64_t letter) {
  // Cancellation is reported through Status, never thrown.
  co_await this_coro::throw_if_cancelled(false);
  if (!mailbox_.TryAcquire()) co_await mailbox_.Acquire(false);
  mailbox_letter_ = letter;
  Status status = co_await RunFrontTask(key, letter);
  // A put the broker rejected was never persisted: the action may run again
  // from its last saved state, within the scenario's retry budget.
  for (int64_t retry = 1; status.code() == StatusCode::kNotPersisted && !stopped_ &&
                          retry <= world_.scenario().log.put_retries_max;
       ++retry) {
    world_.Record("action.retry", "key={:?} retry={} after={}", key, retry, status.ToString());
    status = co_await RunFrontTask(key, letter);
  }
  if (!status.ok()) {
    Fail(status.ToString());
    co_return;  // the attempt is over; the scheduler drops everything
  }
  keys_with_letter_.erase(key);
  ScheduleKey(key);
  mailbox_letter_ = 0;
  mailbox_.Release();
  // The letter's cancellation signal stays until the runtime is destroyed:
  // the coroutine's cancellation state lives in that signal's slot and is
  // still used while the coroutine unwinds.
  LetterDone();
}

void AgentRuntime::LetterDone() {
  if (--live_letters_ == 0) idle_signal_.Notify();
}

void AgentRuntime::SpawnPruneTail() {
  ++live_letters_;
  boost::asio::co_spawn(scheduler_.executor(), PruneTail(), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);  // Attempt::Run ends the attempt in error naming it
  });
}

boost::asio::awaitable<void> AgentRuntime::PruneTail() {
  co_await store_.FinishPrunes();
  if (--live_letters_ == 0) idle_signal_.Notify();
}

bool AgentRuntime::BeginDrain(const std::string& id) {
  DURASIM_CHECK(mailbox_.held());
  DURASIM_CHECK(world_.scenario().durable.engine == ExecutionEngine::kWorkerPool);
  if (!DrainsAtBarrier()) return false;
  draining_ = true;
  world_.Record("checkpoint.drain", "{}id={} in_flight={}", Tag(), id, keys_with_letter_.size());
  if (!keys_with_letter_.empty()) world_.CountFault(CoveragePoint::Reached(WorldFeature::kCheckpointDrained));
  return true;
}

void AgentRuntime::EndDrain() {
  DURASIM_CHECK(mailbox_.held());
  if (!draining_) return;
  draining_ = false;
  // Only the keys the drain held: a key nothing scheduled (one a restore
  // did not resume) stays as it was.
  const std::set<std::string> held = std::exchange(held_by_drain_, {});
  for (const std::string& key : held) ScheduleKey(key);
}

KeyedStates AgentRuntime::WorkerPoolKeyedStates() const {
  KeyedStates keyed = keyed_;
  for (const std::string& key : keys_with_letter_) {
    KeyedState& pulled = keyed.at(key);
    DURASIM_CHECK(!pulled.tasks.empty());  // a letter runs its key's front task
    pulled.tasks.pop_front();
  }
  return keyed;
}

boost::asio::awaitable<void> AgentRuntime::WaitIdle() {
  while (live_letters_ > 0) {
    co_await idle_signal_.AsyncWait(boost::asio::as_tuple(boost::asio::use_awaitable));
  }
}

boost::asio::awaitable<Status> AgentRuntime::RunFrontTask(const std::string& key, uint64_t letter) {
  KeyedState& keyed = keyed_[key];
  const ActionTask task = keyed.tasks.front();
  const ActionSpec& action = world_.actions()[task.action_index];
  const StateKey state_key{key, task.seq, task.event.hash, ActionIdentity(action.name)};
  const TaskView view{state_key, action.name, task.input_offset};

  std::optional<ActionState> saved = GetSavedState(state_key, action.name);
  if (saved.has_value() && saved->completed) {
    world_.Record("action.replay", "{} action_name={} input={}", StateKeyText{state_key}, action.name,
                  task.input_offset);
    if (!saved->memory_updates.empty()) world_.CountFault(CoveragePoint::Reached(WorldFeature::kMemoryReplayed));
    FinishTask(key, task, state_key, *saved);
    co_return Status::Ok();
  }

  const size_t start_index = world_.Record(
      "action.start", "{} action_name={} input={} event={} value={}", StateKeyText{state_key},
                                  action.name, task.input_offset, task.event.type, task.event.value);
  world_.Notify([&](RunObserver& o) { o.OnActionExecuted(view, start_index); });

  ActionRun run{action, state_key, letter,
                SavedCalls(saved.has_value() ? std::move(saved->call_results) : std::vector<CallResult>{}), ActionState{},
                task.event.value, 0, &keyed.memory, false};
  if (!saved.has_value()) {
    Status put = co_await PutState(state_key, run.state, PutPoint::kStart);
    if (!put.ok()) co_return put;
  }
  for (const ActionStep& step : action.steps) {
    if (step.kind != ActionStep::Kind::kCall) {
      ApplyLocalStep(run, step);
    } else if (std::optional<Status> end = co_await RunCallStep(run, step)) {
      co_return *end;
    }
    if (run.ignored) break;
  }
  if (run.ignored) {
    // `on_error: ignore`: the action completes with none of its effects.
    run.state.memory_updates.clear();
    run.state.emitted_events.clear();
  }
  run.state.completed = true;
  run.state.call_results.clear();
  if (Status put = co_await PutState(state_key, run.state, PutPoint::kComplete); !put.ok()) co_return put;
  world_.Record("action.finish", "{} action_name={}", StateKeyText{state_key}, action.name);
  FinishTask(key, task, state_key, run.state);
  co_return Status::Ok();
}

std::optional<ActionState> AgentRuntime::GetSavedState(const StateKey& state_key, const std::string& action_name) {
  const ActionStateStore::LookupEvictions before = store_.EvictionsByGet();
  std::optional<ActionState> saved = store_.Get(state_key);
  const ActionStateStore::LookupEvictions after = store_.EvictionsByGet();
  if (after.states_evicted > before.states_evicted) {
    // The real get() (store_options: {get: evict_on_divergence}) dropped
    // cached states before its lookup.
    world_.Record("get.evicted", "{} action_name={} states={}", StateKeyText{state_key}, action_name,
                  after.states_evicted - before.states_evicted);
  }
  if (after.later_states_kept > before.later_states_kept) {
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kLaterStatesKept));
  }
  if (saved.has_value()) {
    const size_t index = world_.Record("get.hit", "{} action_name={} completed={} calls={}",
                                       StateKeyText{state_key}, action_name,
                                       saved->completed, saved->call_results.size());
    const uint64_t digest = ValueDigest(world_, state_key, *saved);
    world_.Notify([&](RunObserver& o) { o.OnGetHit(state_key, digest, index); });
    world_.Notify([&](RunObserver& o) { o.OnSavedStateRead(state_key, &*saved, index); });
  } else {
    world_.Notify([&](RunObserver& o) { o.OnSavedStateRead(state_key, nullptr, 0); });
  }
  return saved;
}

void AgentRuntime::ApplyLocalStep(ActionRun& run, const ActionStep& step) const {
  switch (step.kind) {
    case ActionStep::Kind::kCall: break;  // the durable-call path, RunCallStep
    case ActionStep::Kind::kMemory: run.state.memory_updates.push_back(MemoryUpdate{step.name, run.acc}); break;
    case ActionStep::Kind::kEmit: run.state.emitted_events.push_back(EmittedEvent{step.name, run.acc}); break;
    case ActionStep::Kind::kOutput:
      run.state.emitted_events.push_back(EmittedEvent{kOutputEventType, OutputValue(run.acc)});
      break;
    case ActionStep::Kind::kRecall:
      if (const std::optional<int64_t> value = run.Recall(step.name)) {
        world_.CountFault(CoveragePoint::Reached(WorldFeature::kMemoryRecall));
        run.acc = WrappingAdd(run.acc, *value);
      }
      break;
    case ActionStep::Kind::kMemoryAdd:
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kMemoryAdd));
      run.state.memory_updates.push_back(
          MemoryUpdate{step.name, WrappingAdd(run.Recall(step.name).value_or(0), run.acc)});
      break;
  }
}

boost::asio::awaitable<Status> AgentRuntime::PutState(const StateKey& state_key, const ActionState& state,
                                                      PutPoint why) {
  // Durable execution off: there is no store to put to (Flink Agents' no-op
  // maybe-persist), and nothing to report saved.
  if (!world_.scenario().durable.execution) co_return Status::Ok();
  const uint64_t digest = ValueDigest(world_, state_key, state);
  const size_t issued =
      world_.Record("put.issued", "{} why={} value={:016x}", StateKeyText{state_key}, NameOf(why), digest);
  world_.Notify([&](RunObserver& o) { o.OnPutIssued(state_key, issued); });
  const Status status = co_await store_.Put(state_key, state);
  const size_t index = world_.Record(
      status.ok() ? "put.ok" : (status.code() == StatusCode::kCancelled ? "put.cancelled" : "put.failed"),
      "{} why={} value={:016x}{}", StateKeyText{state_key}, NameOf(why), digest,
                  status.ok() ? "" : " error=" + status.ToString());
  world_.Notify([&](RunObserver& o) { o.OnPutResult(state_key, digest, status, index); });
  if (status.code() == StatusCode::kCancelled) {
    auto cancellation = co_await this_coro::cancellation_state;
    const bool visible = cancellation.cancelled() != boost::asio::cancellation_type::none;
    const size_t seen =
        world_.Record("cancel.seen", "{} still_visible={}", StateKeyText{state_key}, visible);
    world_.Notify([&](RunObserver& o) { o.OnCancelSeen(status, visible, seen); });
  }
  co_return status;
}

void AgentRuntime::FinishTask(const std::string& key, const ActionTask& task, const StateKey& state_key,
                              const ActionState& completed) {
  KeyedState& keyed = keyed_[key];
  // The memory updates are saved as the values they set, so a replay
  // re-applies them and gives the same memory (line: action.finish/replay).
  const size_t finish_line = world_.trace().size() - 1;
  for (const MemoryUpdate& update : completed.memory_updates) {
    keyed.memory[update.slot] = update.value;
    world_.Notify([&](RunObserver& o) { o.OnMemoryWritten(key, update.slot, update.value, finish_line); });
  }
  const std::vector<ActionSpec>& actions = world_.actions();
  uint64_t emit_index = 0;
  for (const EmittedEvent& emitted : completed.emitted_events) {
    if (emitted.type == kOutputEventType) {
      const int64_t index = keyed.run_outputs++;
      const size_t line = world_.Record(
          "output", "input={} index={} value={}", task.input_offset, index, emitted.value);
      world_.Notify([&](RunObserver& o) { o.OnOutput(task.input_offset, index, emitted.value, line); });
      continue;
    }
    // A child event's identity covers its origin, so identical siblings differ.
    const Event event{emitted.type, emitted.value,
                      ChildEventIdentity(state_key, emit_index++, emitted.type, emitted.value)};
    for (size_t i = 0; i < actions.size(); ++i) {
      for (const std::string& type : actions[i].on) {
        if (type == emitted.type) keyed.tasks.push_back(ActionTask{task.seq, task.input_offset, i, event});
      }
    }
  }
  keyed.tasks.pop_front();
}

std::optional<AgentRuntime::Snapshot> AgentRuntime::BeginSnapshot(const std::string& id) {
  DURASIM_CHECK(mailbox_.held());
  if (faults_.OnCheckpointBarrier(subtask_.index)) return std::nullopt;  // crashed as the barrier arrived
  Snapshot snapshot;
  for (const auto& [key, keyed] : keyed_) {
    snapshot.completed[key] = keyed.last_completed_seq;
    snapshot.queued_tasks += keyed.tasks.size();
  }
  snapshot.processing_keys = ProcessingKeys();
  Result<RecoveryMarker> marker = store_.GetRecoveryMarker(snapshot.completed);
  if (!marker.ok()) {
    Decline(id, marker.status().ToString());
    return std::nullopt;
  }
  snapshot.marker = *std::move(marker);
  return snapshot;
}

void AgentRuntime::Decline(const std::string& id, const std::string& why) {
  checkpoint_failure_ = why;
  world_.Record("checkpoint.declined", "{}id={} error={}", Tag(), id, checkpoint_failure_);
}

std::optional<AgentRuntime::Snapshot> AgentRuntime::FinishSnapshot(const std::string& id, Snapshot snapshot,
                                                                   const Status& written) {
  DURASIM_CHECK(mailbox_.held());
  if (!written.ok()) {
    Decline(id, written.ToString());
    return std::nullopt;
  }
  // Without a store there is nothing to prune: no per-checkpoint map.
  if (world_.scenario().durable.execution) {
    pending_checkpoints_[id] = snapshot.completed;
    pending_order_.push_back(id);
  }
  if (world_.scenario().durable.engine == ExecutionEngine::kWorkerPool) {
    // A pulled task is not in keyed state. Drained, none is pulled and the
    // snapshot is the keyed state itself; without the drain (mutant
    // worker-pool-skips-drain) the pulled tasks are missing from it.
    DURASIM_CHECK(!DrainsAtBarrier() || keys_with_letter_.empty());
    snapshot.keyed = WorkerPoolKeyedStates();
    snapshot.queued_tasks -= keys_with_letter_.size();  // the pulled ones are not in it
  } else {
    snapshot.keyed = keyed_;
  }
  return snapshot;
}

boost::asio::awaitable<std::optional<AgentRuntime::Snapshot>> AgentRuntime::TakeCheckpoint(const std::string& id) {
  std::optional<Snapshot> snapshot = BeginSnapshot(id);
  if (!snapshot.has_value()) co_return std::nullopt;
  const size_t before = store_.Stats().snapshot_records;
  const Status written = co_await store_.CompleteSnapshot(snapshot->completed, snapshot->marker);
  // A crash while the writes were awaited ends the attempt here.
  if (stopped_) co_return std::nullopt;
  if (const size_t records = store_.Stats().snapshot_records - before; records > 0) {
    world_.Record("checkpoint.rewritten", "{}id={} records={}{}", Tag(), id, records,
                  written.ok() ? "" : " failed=true");
    world_.CountFault(CoveragePoint::Happened(written.ok() ? StoreEvent::kRewritesWritten : StoreEvent::kRewriteFailed));
  }
  co_return FinishSnapshot(id, *std::move(snapshot), written);
}

std::optional<AgentRuntime::Snapshot> AgentRuntime::TakeFinalCheckpoint(const std::string& id) {
  DURASIM_CHECK(RunsFinished());  // nothing unfinished: nothing for a design to write
  std::optional<Snapshot> snapshot = BeginSnapshot(id);
  if (!snapshot.has_value()) return std::nullopt;
  return FinishSnapshot(id, *std::move(snapshot), Status::Ok());
}

void AgentRuntime::NotifyCheckpointComplete(const std::string& id) {
  DURASIM_CHECK(mailbox_.held());
  auto it = pending_checkpoints_.find(id);
  if (it == pending_checkpoints_.end()) return;  // taken by an earlier incarnation
  // The boundaries are cumulative: this prune covers every earlier
  // checkpoint's too, those completed without notice included.
  for (const auto& [key, seq] : it->second) store_.Prune(key, seq);
  if (store_.PrunesPending()) SpawnPruneTail();
  ReleaseSubsumedCheckpoints(id);
  const StoreStats stats = store_.Stats();
  // States of keys this subtask does not own (a restore's leftovers) are
  // never pruned by it: the store must not hold any.
  std::vector<std::string> foreign;
  if (subtask_.parallelism > 1) {
    for (const std::string& key : store_.CachedInputKeys()) {
      if (!Owns(key)) foreign.push_back(key);
    }
  }
  const size_t pruned = world_.Record(
      "store.pruned", "{}cached={} bookkeeping={}{}", Tag(), stats.cached_states,
                                  stats.bookkeeping_entries,
                                  foreign.empty() ? "" : fmt::format(" foreign_keys={}", foreign.size()));
  if (!foreign.empty()) world_.Notify([&](RunObserver& o) { o.OnForeignStates(subtask_.index, foreign, pruned); });
  world_.Notify([&](RunObserver& o) { o.OnCheckpointNotified(id, true, bookkeeping_entries(), pruned); });
  if (!world_.scenario().expect.completions.empty()) {
    world_.NotePruned(World::Pruned{id, subtask_.index, store_.CachedStates()});
  }
}

void AgentRuntime::NotifyCheckpointAborted(const std::string& id, size_t aborted_line) {
  DURASIM_CHECK(mailbox_.held());
  ReleaseAbortedCheckpoint(id);
  world_.Notify([&](RunObserver& o) { o.OnCheckpointNotified(id, false, bookkeeping_entries(), aborted_line); });
}

void AgentRuntime::ReleaseSubsumedCheckpoints(const std::string& id) {
  // This completion subsumes every checkpoint taken before it: those whose
  // notice never came (completed without notice, or subsumed) go too.
  while (!pending_order_.empty()) {
    const std::string done = pending_order_.front();
    pending_order_.pop_front();
    pending_checkpoints_.erase(done);
    if (done == id) break;
  }
}

void AgentRuntime::ReleaseAbortedCheckpoint(const std::string& id) {
  pending_checkpoints_.erase(id);
  std::erase(pending_order_, id);
}

boost::asio::awaitable<Status> AgentRuntime::CallCancelled(const StateKey& /*state_key*/, ActionState& /*state*/,
                                                           const CallIdentity& call) {
  co_return Status(StatusCode::kCancelled, fmt::format("durable call [{}] was cancelled in flight", call.ToString()));
}

void AgentRuntime::Crash(const std::string& reason) {
  world_.Record("crash", reason);
  world_.Halt();
  stopped_ = true;
  scheduler_.Stop();
}

void AgentRuntime::Fail(const std::string& reason) {
  world_.Record("attempt.failed", reason);
  world_.Halt();
  stopped_ = true;
  failed_ = true;
  scheduler_.Stop();
}

void AgentRuntime::CancelRunningWait(const std::optional<StateKey>& put) {
  const uint64_t letter = mailbox_letter_;
  world_.Record("cancel.injected", "letter={}", letter);
  const size_t index = world_.trace().size() - 1;
  world_.Notify([&](RunObserver& o) { o.OnCancelInjected(put, index); });
  PostCancel(letter);
}

void AgentRuntime::PostCancel(uint64_t letter) {
  // Posted: the wait must be parked (its slot connected) when the signal fires.
  boost::asio::post(scheduler_.io(), [this, letter] {
    // Letter 0 is the driver's, which has no signal.
    if (letter >= 1 && letter <= letter_signals_.size()) {
      letter_signals_[letter - 1].emit(boost::asio::cancellation_type::terminal);
    }
  });
}

void AgentRuntime::AddUnfinishedInputs(std::set<int64_t>& unfinished) const {
  for (const auto& [key, keyed] : keyed_) {
    if (keyed.run_input_offset >= 0) unfinished.insert(keyed.run_input_offset);
    for (const InputRecord& queued : keyed.pending_inputs) unfinished.insert(queued.offset);
  }
}

bool AgentRuntime::RunsFinished() const {
  for (const auto& [key, keyed] : keyed_) {
    if (keyed.run_input_offset >= 0 || !keyed.tasks.empty() || !keyed.pending_inputs.empty()) return false;
  }
  return true;
}

}  // namespace durasim
