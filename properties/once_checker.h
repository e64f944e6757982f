// Invariant: once. A supplier never runs for a call whose terminal result
// was already persisted in the log when the call started (in any attempt).
// Calls are compared by their production identity (StableIdentity), so a
// runtime whose names change between attempts does not hide a repeat.
// Flink Agents' rule ends reuse at the first saved call that is not the
// call at its index (another function or argument, compared by production
// identity too): the saved results from there on are discarded, and making
// those calls again is no repeat. The rule holds within a lineage
// (docs/scenarios.md, "Lineages"): a job started fresh after earlier
// attempts redoes its work, and its calls repeat no call of another job.
#pragma once

#include <map>

#include "properties/invariant_checker.h"
#include "properties/runtime_puts.h"
#include "properties/stable_identity.h"

namespace durasim {

class OnceChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int /*attempt*/) override { runtime_puts_.Clear(); }  // a crash ends every put
  void OnLineage(int lineage) override { lineage_ = lineage; }
  void OnPutIssued(const StateKey& key, size_t /*trace_index*/) override { runtime_puts_.Issued(key); }
  void OnPutResult(const StateKey& key, uint64_t /*value_digest*/, const Status& /*status*/,
                   size_t /*trace_index*/) override {
    runtime_puts_.Ended(key);
  }
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnActionExecuted(const TaskView& task, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) override;
  void OnSavedCallMismatch(const CallIdentity& call, const CallArgument& argument, const CallResult& saved,
                           size_t trace_index) override;

 private:
  StableIdentity stable_;
  // Real mismatches (by production identity) whose superseding state is yet
  // to be appended, by stable state key: the first discarded call index and
  // the saved call there (stable). The next record of that state a runtime
  // put wrote decides: without that saved call at that index, the discard
  // happened.
  struct Discard {
    int index = 0;
    CallIdentity saved;
  };
  int lineage_ = 0;
  // Both by lineage: the discards of a job's calls, and its persisted results.
  std::map<std::pair<int, StateKey>, Discard> discards_;
  // A record of a state with no runtime put in flight is the store's own
  // copy (kafka-rewrite's rewrite at a snapshot), no new put, so it resolves
  // no discard.
  RuntimePuts runtime_puts_;
  std::map<std::pair<int, CallIdentity>, size_t> persisted_terminal_;  // stable call -> trace index of the append
};

}  // namespace durasim
