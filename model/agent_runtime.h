// AgentRuntime: one subtask of the simulated agent operator. Keyed inputs get per-key
// sequence numbers; each input's run is the set of action tasks its input
// event triggers, transitively; runs of one key are serial, runs of different
// keys interleave on the mailbox. Actions execute their steps, persisting
// their ActionState through the store at start, around every durable call
// (pending slot, then result) and at completion, and reuse saved call
// results after a restore. Checkpoints capture keyed state, the store's
// recovery marker and the source offset; completion prunes finished states.
//
// The driver (the attempt's script, model/attempt.h) routes inputs to their
// key's subtask (ProcessInput) and takes checkpoints across the subtasks
// (TakeCheckpoint, then NotifyCheckpointComplete / NotifyCheckpointAborted)
// while it holds every subtask's mailbox.
//
// Thread-safety: none; runs on one Scheduler.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "model/checkpoint.h"
#include "model/durable_call.h"
#include "model/fault_plan.h"
#include "model/identity.h"
#include "model/keyed_state.h"
#include "model/mailbox.h"
#include "model/subtask_context.h"
#include "model/world.h"
#include "store/action_state_store.h"

namespace durasim {

class AgentRuntime {
 public:
  // What one subtask snapshots as a checkpoint's barrier reaches it.
  struct Snapshot {
    KeyedStates keyed;
    CompletedBoundaries completed;
    RecoveryMarker marker;
    std::vector<std::string> processing_keys;  // keys with a run in progress, in key order
    size_t queued_tasks = 0;
  };

  // REQUIRES: all references outlive the runtime.
  AgentRuntime(World& world, Scheduler& scheduler, ActionStateStore& store, FaultPlan& faults,
               const SubtaskContext& subtask = SubtaskContext{});
  virtual ~AgentRuntime() = default;

  // A restore's union list written by hand (model/hand_made_markers.h), and
  // why every store must reject it, if it must.
  struct HandMadeList {
    std::vector<RecoveryMarker> markers;
    std::optional<std::string> unusable;
  };
  // Restores the keyed state of the checkpoint's keys this subtask owns and
  // rebuilds the store from the checkpoint's union list of markers (or
  // `hand_made`'s), keeping only owned keys' states. Queued tasks wait for
  // ResumeRestoredTasks().
  Status Restore(const Checkpoint& checkpoint, const HandMadeList* hand_made = nullptr);
  void ResumeRestoredTasks();
  // A fresh start (no checkpoint restored): a new job, whose store starts
  // empty and reads nothing of the topic (FreshStart).
  void StartFresh() { FreshStart(); }

  Mailbox& mailbox() { return mailbox_; }
  const SubtaskContext& subtask() const { return subtask_; }
  // Whether this subtask owns `key` (its key group is in the subtask's range).
  bool Owns(const std::string& key) const;

  // Driver operations. REQUIRES: the caller holds the mailbox.
  // An input of a key this subtask owns, from the source.
  void ProcessInput(const InputRecord& input);
  // The barrier of checkpoint `id`: the subtask's snapshot, or none when it
  // crashed at the barrier or its store gave no marker or could not complete
  // the snapshot (checkpoint.declined, and checkpoint_failure() says why).
  // The store's snapshot writes (kafka-rewrite) are awaited holding the
  // mailbox, as Flink's snapshotState blocks the task thread.
  boost::asio::awaitable<std::optional<Snapshot>> TakeCheckpoint(const std::string& id);
  // The checkpoint after the last attempt finished every input: no action
  // is unfinished, so no design writes anything at it, and it is taken at
  // once (the scheduler has stopped).
  std::optional<Snapshot> TakeFinalCheckpoint(const std::string& id);
  const std::string& checkpoint_failure() const { return checkpoint_failure_; }
  // After the job saved the checkpoint (and any fault after the snapshot).
  virtual void SnapshotTaken(const std::string& /*id*/) {}
  // Checkpoint `id`, which the job marked completed (or aborted, at trace
  // line `aborted_line`), reaches this subtask.
  void NotifyCheckpointComplete(const std::string& id);
  void NotifyCheckpointAborted(const std::string& id, size_t aborted_line);
  // The job declined checkpoint `id` after this subtask snapshotted it (another
  // subtask gave no marker): its map of it goes.
  void DropCheckpoint(const std::string& id) { ReleaseAbortedCheckpoint(id); }
  // The process dies now: from a script step, or from a fault hook while an
  // action holds the mailbox or an async call is in flight (no mailbox).
  void Crash(const std::string& reason);

  // The worker-pool engine's barrier (`durable: {engine: worker_pool}`,
  // apache/flink-agents PR #1147's prepareSnapshotPreBarrier): from now on
  // no worker pulls a task, so that once the ones pulled are committed
  // (WaitIdle) nothing is in flight at the snapshot. Traced with the tasks
  // in flight (`checkpoint.drain`). False when this runtime does not drain
  // (DrainsAtBarrier). REQUIRES: the caller holds the mailbox.
  bool BeginDrain(const std::string& id);
  // After the snapshot: workers pull again.
  void EndDrain();
  // Completes when no action task is queued, running or in flight.
  boost::asio::awaitable<void> WaitIdle();
  bool idle() const { return live_letters_ == 0; }
  // Every run this subtask started finished, and no input waits for one.
  bool RunsFinished() const;
  // The inputs (offsets) this subtask has not finished: queued behind a run,
  // or whose run is still going.
  void AddUnfinishedInputs(std::set<int64_t>& unfinished) const;
  // Cancels the put wait of the letter holding the mailbox (fault injection):
  // the wait of the put of `put` (when known), which the observers are told.
  void CancelRunningWait(const std::optional<StateKey>& put);

  bool stopped() const { return stopped_; }
  bool failed() const { return failed_; }
  // The job failed over because a durable call failed under `on_error: fail`
  // (or ran out of retries): the one way a run without faults can fail.
  bool call_failed() const { return !call_failure_.empty(); }
  const std::string& call_failure() const { return call_failure_; }
  // The input key of the call that failed the job over, or "".
  const std::string& call_failure_key() const { return call_failure_key_; }
  // Keyed state now (memory included), for the end-of-run comparison.
  const KeyedStates& keyed_states() const { return keyed_; }
  // Per-checkpoint maps still held (bounded-memory invariant).
  virtual size_t bookkeeping_entries() const { return pending_checkpoints_.size(); }

 protected:
  // Seams for mutants (properties/mutants/): each is the production
  // behaviour, split out so a derived runtime can replace it.

  // Whether a saved call result is reused on replay instead of calling the
  // supplier: every terminal result; a PENDING slot is called again (after
  // asking its supplier's reconciler, when it has one: AsksReconciler).
  virtual bool IsSavedResult(const CallResult& saved) const { return saved.status != CallStatus::kPending; }
  // Whether the reconciler of a call's supplier (it has one) is asked about
  // `slot`, the saved slot of that very call: only a PENDING one (a slot
  // with a result is reused).
  virtual bool AsksReconciler(const CallResult& slot) const { return slot.status == CallStatus::kPending; }
  // Whether a call of `supplier` saves its PENDING slot before it is made:
  // every call, or with `durable: {pending: reconcilable}` only one whose
  // supplier has a reconciler (which needs the slot after a crash).
  virtual bool SavesPendingFirst(const SupplierSpec& supplier) const {
    return world_.scenario().durable.pending == PendingSlots::kEveryCall || !supplier.reconcile.empty();
  }
  // Whether a call an async step makes synchronously (`durable: {async:
  // sync_fallback}`) is persisted as any durable call is.
  virtual bool PersistsFallbackCall() const { return true; }
  // The slot a failed call saves when its action catches the failure
  // (`on_error: continue`): the failure as the supplier raised it.
  virtual CallResult CaughtFailureSlot(const CallResult& failed, int64_t /*fallback*/) const { return failed; }
  // Identities (model/identity.h), which must not change between attempts:
  // the action part of a state key, a durable call's argument digest and an
  // emitted event's hash.
  virtual uint64_t ActionIdentity(const std::string& action_name) const { return ActionHash(action_name); }
  virtual uint64_t CallDigest(const std::string& function, const CallArgument& arg) const {
    return CallArgsDigest(function, arg);
  }
  // Whether the saved slot of a call's index is that call: the same function
  // and argument digest. From the first slot that is not, nothing saved is
  // reused (SavedCalls).
  virtual bool SavedCallMatches(const CallResult& saved, const CallIdentity& call) const {
    return saved.function_id == call.function && saved.args_digest == call.args_digest;
  }
  virtual uint64_t ChildEventIdentity(const StateKey& origin, uint64_t emit_index, const std::string& type,
                                      int64_t value) const {
    return ChildEventHash(origin, emit_index, type, value);
  }
  // The value an output step emits.
  virtual int64_t OutputValue(int64_t acc) const { return acc; }
  // How many tries of a call a FAILED result counts for: one, whether the
  // call was made now or its saved failure reused after a restore.
  virtual int64_t TriesOf(bool /*reused*/) const { return 1; }
  // What a fresh start does before the script: nothing (the store's cache
  // starts empty; a new job redoes its work, docs/scenarios.md "Lineages").
  virtual void FreshStart() {}
  // Drops the per-checkpoint map of an aborted checkpoint.
  virtual void ReleaseAbortedCheckpoint(const std::string& id);
  // Completed checkpoint `id` was notified: its entry and those of every
  // checkpoint taken before it go.
  virtual void ReleaseSubsumedCheckpoints(const std::string& id);
  // What a restored subtask takes of a checkpoint: the keyed state of the
  // keys it owns (their key groups are in its range), and the marker it
  // rebuilds from: every subtask's marker (the store merges them).
  virtual KeyedStates RestoredKeyedStates(const Checkpoint& checkpoint) const;
  virtual std::vector<RecoveryMarker> RebuildMarkers(const Checkpoint& checkpoint) const { return checkpoint.markers; }
  // The processing keys a restored subtask keeps from the union list (its
  // operator state): the distinct ones it owns, in key order.
  virtual std::vector<std::string> RestoredProcessingKeys(const Checkpoint& checkpoint) const;
  // Whether the subtask resumes a kept processing key: when it owns it.
  virtual bool ResumesKey(const std::string& key) const { return Owns(key); }
  // Whether the worker-pool engine's barrier waits until every pulled task
  // is committed: it must, since a pulled task is no longer in keyed state
  // (WorkerPoolKeyedStates) and lives only in its worker's memory.
  virtual bool DrainsAtBarrier() const { return true; }
  // The processing keys a snapshot puts into the union list: the keys with
  // a run in progress, in key order.
  virtual std::vector<std::string> ProcessingKeys() const;
  // A durable call was cancelled while in flight; `state` holds its PENDING
  // slot, last. A cancellation is no result: nothing is persisted, so a
  // restore calls again; the cancellation reaches the caller.
  // REQUIRES: the caller holds the mailbox.
  virtual boost::asio::awaitable<Status> CallCancelled(const StateKey& state_key, ActionState& state,
                                                       const CallIdentity& call);

  boost::asio::awaitable<Status> PutState(const StateKey& state_key, const ActionState& state,
                                          PutPoint why);

  // Per-checkpoint completed boundaries, kept from snapshot to notification.
  std::map<std::string, CompletedBoundaries> pending_checkpoints_;
  std::deque<std::string> pending_order_;
  std::string checkpoint_failure_;  // why the last checkpoint this subtask declined was declined
  // Operator state: the processing keys this subtask took from the union
  // list at its restore, and resumes.
  std::vector<std::string> restored_processing_keys_;
  ActionStateStore& store_;
  World& world_;

 private:
  // The barrier and the marker: none when the subtask crashed at the
  // barrier or its store gave no marker.
  std::optional<Snapshot> BeginSnapshot(const std::string& id);
  // The snapshot handed over once the store's snapshot writes ended with
  // `written` (declined unless Ok).
  std::optional<Snapshot> FinishSnapshot(const std::string& id, Snapshot snapshot, const Status& written);
  // The subtask declines checkpoint `id` for `why`.
  void Decline(const std::string& id, const std::string& why);

  void StartRun(KeyedState& keyed, const InputRecord& input);
  // The keyed state a worker-pool snapshot holds: a task a worker pulled
  // (its key has a letter) has left its key's queue.
  KeyedStates WorkerPoolKeyedStates() const;
  // "" for a job of one subtask, else "subtask=<i> ": the prefix of this
  // subtask's trace details.
  std::string Tag() const;
  // Why the store must reject the restore of `checkpoint` from `marker`, or
  // none when it must accept it (counting the coverage of hand-made markers).
  std::optional<std::string> ExpectedRejection(const Checkpoint& checkpoint, const RecoveryMarker& marker,
                                               const HandMadeList* hand_made, bool reads);
  void ScheduleKey(const std::string& key);
  boost::asio::awaitable<void> KeyLetter(std::string key, uint64_t letter);
  // What the prunes of a completion left until the log answers them
  // (ActionStateStore::FinishPrunes), run as a task of its own without the
  // mailbox; the runtime is not idle before it ends.
  void SpawnPruneTail();
  boost::asio::awaitable<void> PruneTail();
  boost::asio::awaitable<Status> RunFrontTask(const std::string& key, uint64_t letter);
  // The saved state of `state_key`, if the store has one (traced as a hit).
  std::optional<ActionState> GetSavedState(const StateKey& state_key, const std::string& action_name);
  // A step that only changes the action's state: memory, emit, output.
  void ApplyLocalStep(ActionRun& run, const ActionStep& step) const;
  // The durable-call path (agent_runtime_calls.cc): reuses the saved result of the
  // call `step` or makes it, and again for each retry. A status ends the
  // task's run there (a failed put, a cancellation, a failure that fails
  // over); nothing means the action goes on (or, `run.ignored`, ends).
  boost::asio::awaitable<std::optional<Status>> RunCallStep(ActionRun& run, const ActionStep& step);
  // The supplier's answer into the call's slot (the last of run.state),
  // traced and told to the observers; a failure the action catches is
  // saved as CaughtFailureSlot says.
  void TakeAnswer(ActionRun& run, const CallIdentity& call, const SupplierOutcome& outcome);
  // Makes one try; its outcome is the last of `run.state.call_results`.
  boost::asio::awaitable<std::optional<Status>> MakeCall(ActionRun& run, const ActionStep& step,
                                                         const CallIdentity& call, const CallArgument& argument,
                                                         bool retry_follows);
  // What the call `step` hands the outside world now.
  CallArgument ArgumentOf(const ActionRun& run, const ActionStep& step) const;
  void ReuseCall(ActionRun& run, const CallIdentity& call, const CallResult& saved);
  // Asks the reconciler of `call`'s supplier about `slot` (model/reconcile.h):
  // the result the call then has (done: the outcome; unknown: a failure),
  // or none when it is to be made again.
  std::optional<CallResult> Reconcile(ActionRun& run, const CallIdentity& call, const CallArgument& argument,
                                      const CallResult& slot);
  // Applies the action's error handling to the failed try `tried` of `call`.
  std::optional<Status> HandleCallFailure(ActionRun& run, const CallIdentity& call, const CallResult& failed,
                                          int64_t tried);
  // Applies a completed state: memory, outputs, child events; ends the task.
  void FinishTask(const std::string& key, const ActionTask& task, const StateKey& state_key,
                  const ActionState& completed);
  void Fail(const std::string& reason);
  void LetterDone();
  // Emits terminal cancellation on a letter's signal, posted so that the
  // operation to cancel is parked when it fires.
  void PostCancel(uint64_t letter);

  Scheduler& scheduler_;
  FaultPlan& faults_;
  Mailbox mailbox_;
  SimSignal idle_signal_;
  SubtaskContext subtask_;
  size_t restore_line_ = 0;
  KeyedStates keyed_;
  std::set<std::string> keys_with_letter_;
  // One per letter spawned by this incarnation, letter n at n - 1 (letters
  // count from 1 and are never reused); see KeyLetter. A deque's
  // emplace_back never moves what it holds (and a cancellation_signal cannot
  // move), so each signal stays where its letter's slot points.
  std::deque<boost::asio::cancellation_signal> letter_signals_;
  uint64_t next_letter_ = 1;
  uint64_t mailbox_letter_ = 0;  // letter holding the mailbox, 0 for the driver
  size_t live_letters_ = 0;  // letters and prune tails not yet ended
  bool stopped_ = false;
  bool failed_ = false;
  bool draining_ = false;  // a worker-pool barrier waits: no task is pulled (BeginDrain)
  std::set<std::string> held_by_drain_;  // keys whose next task the drain kept queued (EndDrain resumes them)
  std::string call_failure_;  // why a durable call failed the job over, or ""
  std::string call_failure_key_;
};

}  // namespace durasim
