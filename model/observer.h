// RunObserver: the structured events of a simulated run, delivered to the
// invariant checkers (properties/) as they happen. Every event also has a
// line in the trace; `trace_index` points at it so a violation can cite the
// events that prove it.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

#include "model/reconcile.h"
#include "model/scheduler.h"
#include "store/status.h"
#include "store/action_state.h"
#include "store/action_state_store.h"
#include "store/compare_bytes.h"
#include "store/log_client.h"
#include "store/state_codec.h"

namespace durasim {

// The identity of one durable call: its action state's key (which names the
// input, the event and the action), its index in the action, the function
// and the argument digest.
struct CallIdentity {
  StateKey state_key;
  int call_index = 0;
  std::string function;
  uint64_t args_digest = 0;
  std::string ToString() const;
  bool operator==(const CallIdentity&) const = default;
  // The member-wise order a defaulted <=> gives, with the function's name
  // compared inline (store/compare_bytes.h).
  std::strong_ordering operator<=>(const CallIdentity& other) const {
    if (const std::strong_ordering order = state_key <=> other.state_key; order != 0) return order;
    if (call_index != other.call_index) return call_index <=> other.call_index;
    if (const std::strong_ordering order = CompareBytes(function, other.function); order != 0) return order;
    return args_digest <=> other.args_digest;
  }
};

// What a durable call hands the outside world: the action's accumulator and,
// for a call with `arg: {from: attempt}`, the attempt number (standing for a
// timestamp or a request id in a prompt). The answer depends on the value
// alone; the argument digest covers both.
struct CallArgument {
  int64_t value = 0;
  std::optional<int64_t> attempt;
  bool operator==(const CallArgument&) const = default;
};

// One action run on behalf of an input.
struct TaskView {
  StateKey state_key;
  std::string action;
  int64_t input_offset = 0;
};

struct RestoreView {
  std::string checkpoint;
  CompletedBoundaries completed;  // captured by the restored checkpoint
  int64_t source_offset = 0;      // inputs below it were read before the checkpoint
  // What the rebuild read from, how much it scanned, and which subtask's
  // store it was (for the causes a violation quotes: sim/run/violation_cause.h).
  MarkerOffsets marker = {};
  int64_t records_scanned = 0;
  int32_t subtask = 0;
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void OnAttemptStart(int /*attempt*/) {}
  // The lineage (docs/scenarios.md, "Lineages") that the records appended
  // and the calls made from now on belong to, named by the attempt that
  // started it fresh: a fresh start begins its own, a restore continues
  // that of the attempt that took the checkpoint. At an attempt's start the
  // records a later read discovers (written by the attempt before, whose
  // answers never came) still belong to the previous attempt's lineage, so
  // this comes after them.
  virtual void OnLineage(int /*lineage*/) {}
  // A record the log now holds; `decoded` is its state, or null when the
  // value does not decode (a tombstone, a corrupt record). Decoded once here
  // for every checker.
  virtual void OnRecordAppended(const LogRecord& /*record*/, const DecodedState* /*decoded*/, size_t /*trace_index*/) {}
  // A supplier is invoked for `call` with `argument` (what the call's
  // argument digest stands for).
  virtual void OnSupplierCall(const CallIdentity& /*call*/, const CallArgument& /*argument*/,
                              size_t /*trace_index*/) {}
  // The saved slot at `call`'s index is not that call (another function or
  // argument digest), so the action's saved calls from there on are
  // discarded and its calls are made: the next state put for the action
  // supersedes them. `argument` is what `call` hands the supplier.
  virtual void OnSavedCallMismatch(const CallIdentity& /*call*/, const CallArgument& /*argument*/,
                                   const CallResult& /*saved*/, size_t /*trace_index*/) {}
  // The supplier's answer to `call`: its result (status kSucceeded) or the
  // failure it raised (kFailed, with the error), at its supplier.result or
  // supplier.failed line.
  virtual void OnSupplierAnswered(const CallIdentity& /*call*/, const CallResult& /*answer*/,
                                  size_t /*trace_index*/) {}
  // An action goes on with `used` as the result of `call`: made now, or
  // reused from a saved state (`reused`).
  virtual void OnCallResultUsed(const CallIdentity& /*call*/, const CallResult& /*used*/, bool /*reused*/,
                                size_t /*trace_index*/) {}
  virtual void OnActionExecuted(const TaskView& /*task*/, size_t /*trace_index*/) {}
  // After a restore, subtask `subtask` resumes the in-flight key `key`
  // (from the union list of processing keys), which subtask `owner` owns;
  // `trace_index` is that subtask's restore line.
  virtual void OnKeyResumed(const std::string& /*key*/, int32_t /*subtask*/, int32_t /*owner*/,
                            size_t /*trace_index*/) {}
  // Subtask `subtask` snapshotted `keys` as its processing keys (its entry
  // of the union list) at the checkpoint.taken line `trace_index`; `owners`
  // are the keys' owners, in the same order.
  virtual void OnProcessingKeysSnapshotted(int32_t /*subtask*/, const std::vector<std::string>& /*keys*/,
                                           const std::vector<int32_t>& /*owners*/, size_t /*trace_index*/) {}
  virtual void OnRestore(const RestoreView& /*restore*/, size_t /*trace_index*/) {}
  virtual void OnOutput(int64_t /*input_offset*/, int64_t /*index*/, int64_t /*value*/, size_t /*trace_index*/) {}
  // A completed (or replayed) action's memory update was applied to the
  // memory of input key `key`; `trace_index` is its action.finish or
  // action.replay line.
  virtual void OnMemoryWritten(const std::string& /*key*/, const std::string& /*slot*/, int64_t /*value*/,
                               size_t /*trace_index*/) {}
  // A put was handed to the store; its OnPutResult follows unless the attempt
  // ends first.
  virtual void OnPutIssued(const StateKey& /*key*/, size_t /*trace_index*/) {}
  // A put's outcome. `value_digest` here and in OnGetHit is StateDigest of
  // the state key and state, or 0 in a world whose trace keeps no events
  // (World::keeps_events: the run without faults).
  virtual void OnPutResult(const StateKey& /*key*/, uint64_t /*value_digest*/, const Status& /*status*/,
                           size_t /*trace_index*/) {}
  // A get that found a state (its digest, as in OnPutResult).
  virtual void OnGetHit(const StateKey& /*key*/, uint64_t /*value_digest*/, size_t /*trace_index*/) {}
  // An action's run starts from what the store's get gave for `key`:
  // `saved`, or null when it held nothing (then `trace_index` is 0; else
  // the get.hit line).
  virtual void OnSavedStateRead(const StateKey& /*key*/, const ActionState* /*saved*/, size_t /*trace_index*/) {}
  // The reconciler of `call`'s supplier was asked about `slot`, the saved
  // slot of that very call, and answered `answer` (done, not done or
  // unknown: never truth). `saved` is the result the call then has, saved
  // next (done: the outcome; unknown: the failure); none for not done.
  virtual void OnReconciled(const CallIdentity& /*call*/, const CallResult& /*slot*/, ReconcileAnswer /*answer*/,
                            const std::optional<CallResult>& /*saved*/, size_t /*trace_index*/) {}
  // A put's wait is being cancelled (cancel_put): the put of `put` (none when
  // its meaning is unknown), whose OnPutResult follows.
  virtual void OnCancelInjected(const std::optional<StateKey>& /*put*/, size_t /*trace_index*/) {}
  // The runtime saw a cancelled put; `still_visible` says whether the
  // cancellation state was still set afterwards.
  virtual void OnCancelSeen(const Status& /*put_status*/, bool /*still_visible*/, size_t /*trace_index*/) {}
  // Subtask `subtask`'s store starts a restore's rebuild; its OnRebuild
  // follows. (For what times the rebuild outside the model: restores on
  // a real broker take wall time the trace does not hold.)
  virtual void OnRebuildStart(int32_t /*subtask*/) {}
  // A restore's rebuild finished; `corrupt_in_range` is true when the
  // harness had corrupted a record the rebuild had to read.
  virtual void OnRebuild(const Status& /*status*/, bool /*marker_invalid_expected*/, bool /*corrupt_in_range*/,
                         size_t /*trace_index*/) {}
  // The runtime is idle after a completed checkpoint covered every finished
  // input: nothing should be live in the store.
  // This incarnation took a checkpoint (its snapshot is saved).
  virtual void OnCheckpointTaken(const std::string& /*id*/, size_t /*trace_index*/) {}
  // This incarnation handled the notification that a checkpoint it took
  // completed or aborted; `runtime_bookkeeping` is the number of
  // per-checkpoint maps the runtime still holds afterwards.
  // After a completed checkpoint's prune, subtask `subtask`'s store still
  // caches states of `keys`, input keys it does not own (their key groups
  // are another subtask's); `trace_index` is its store.pruned line.
  virtual void OnForeignStates(int32_t /*subtask*/, const std::vector<std::string>& /*keys*/,
                               size_t /*trace_index*/) {}
  virtual void OnCheckpointNotified(const std::string& /*id*/, bool /*completed*/, size_t /*runtime_bookkeeping*/,
                                    size_t /*trace_index*/) {}
  virtual void OnQuiescent(const StoreStats& /*store*/, size_t /*runtime_bookkeeping*/, bool /*all_pruned*/,
                           size_t /*trace_index*/) {}
};

}  // namespace durasim
