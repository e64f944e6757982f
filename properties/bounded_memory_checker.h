// Invariant: bounded memory. Once every input has finished and a completed
// checkpoint covers them all, the store holds no state and no per-key
// bookkeeping, and the runtime holds no per-checkpoint map. At every
// checkpoint notification, the runtime holds per-checkpoint maps only for
// the checkpoints this incarnation took and that are still pending (not
// completed, subsumed by a later completion, or aborted). With several
// subtasks, no subtask's store caches a state of a key it does not own once
// a checkpoint has completed (only the owner's checkpoints prune it).
// Without a store (durable execution off) there is nothing to prune: the
// runtime holds no per-checkpoint map at all (Flink Agents'
// DurableExecutionManager keeps its checkpoint map empty in no-store mode).
#pragma once

#include <deque>
#include <string>

#include "properties/invariant_checker.h"

namespace durasim {

class BoundedMemoryChecker : public InvariantChecker {
 public:
  // `stored`: durable execution is on.
  explicit BoundedMemoryChecker(const Trace& trace, bool stored = true) : InvariantChecker(trace), stored_(stored) {}
  void OnAttemptStart(int attempt) override;
  void OnCheckpointTaken(const std::string& id, size_t trace_index) override;
  void OnCheckpointNotified(const std::string& id, bool completed, size_t runtime_bookkeeping,
                            size_t trace_index) override;
  void OnQuiescent(const StoreStats& store, size_t runtime_bookkeeping, bool all_pruned, size_t trace_index) override;
  void OnForeignStates(int32_t subtask, const std::vector<std::string>& keys, size_t trace_index) override;

 private:
  std::deque<std::string> pending_;  // taken by this incarnation, not yet notified, in order
  bool stored_ = true;
};

}  // namespace durasim
