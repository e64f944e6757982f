// Invariant: finished stays finished. After restoring a checkpoint, no
// action of an input finished at that checkpoint runs again; an action
// whose completed state was persisted is replayed from it, not re-executed;
// and it is replayed only from a state it wrote itself: an incarnation
// never replays a completed state it wrote (that state's task has finished
// here, so another task shares its state key). State keys are compared by
// their production identity (StableIdentity). Within a lineage
// (docs/scenarios.md, "Lineages"): a job started fresh after earlier
// attempts runs every action again, and re-executes none of another job's.
#pragma once

#include <map>
#include <set>

#include "properties/invariant_checker.h"
#include "properties/stable_identity.h"

namespace durasim {

class FinishedChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int attempt) override;
  void OnLineage(int lineage) override { lineage_ = lineage; }
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnRestore(const RestoreView& restore, size_t trace_index) override;
  void OnActionExecuted(const TaskView& task, size_t trace_index) override;
  void OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status, size_t trace_index) override;
  void OnGetHit(const StateKey& key, uint64_t value_digest, size_t trace_index) override;

 private:
  StableIdentity stable_;
  int lineage_ = 0;
  // (lineage, stable state key) -> trace index of the append
  std::map<std::pair<int, StateKey>, size_t> completed_persisted_;
  std::set<std::pair<StateKey, uint64_t>> completed_values_;  // (state key, value digest) of completed records
  // Completed states this incarnation's puts saved: (key, value digest) -> trace index of the put.
  std::map<std::pair<StateKey, uint64_t>, size_t> completed_here_;
  std::optional<RestoreView> restore_;
  size_t restore_index_ = 0;
};

}  // namespace durasim
