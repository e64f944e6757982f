// Invariant: reconcile (Flink Agents' reconcilers, model/reconcile.h). For
// a call whose supplier has a reconciler:
// - the reconciler is asked only about a saved slot of that very call that
//   is PENDING: a slot with a result is reused, never second-guessed;
// - a saved PENDING slot of that very call is not made again before its
//   reconciler was asked (since the run read the saved state);
// - a call the reconciler reported done (its latest answer) is never made
//   again in its lineage, but as a new call past a mismatch: one the run
//   met after its read, or one an earlier attempt of the lineage made
//   durable (the runtime's next record of the state no longer held the
//   discarded saved call; the once checker's rule);
// - the call is made only once the latest record of its state in its
//   lineage holds its PENDING slot (with
//   `durable: {pending: reconcilable}` too): a crash while it is in flight
//   must leave its reconciler a slot to be asked about.
// The saved slots are what the store's get gave the run (OnSavedStateRead),
// not what the runtime says it saw, up to the first that was not its call
// (OnSavedCallMismatch: from there the saved slots are discarded).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "properties/invariant_checker.h"
#include "properties/runtime_puts.h"

namespace durasim {

class ReconcileChecker : public InvariantChecker {
 public:
  // `suppliers`: those of every plan the run deploys; a name counts as
  // reconciled when each of its declarations has a reconciler.
  // `stored`: durable execution is on (a store holds the slots); off, no
  // call has a slot to save first.
  ReconcileChecker(const Trace& trace, const std::vector<SupplierSpec>& suppliers, bool stored = true);
  void OnLineage(int lineage) override { lineage_ = lineage; }
  void OnAttemptStart(int /*attempt*/) override { runtime_puts_.Clear(); }  // a crash ends every put
  // The puts in flight matter only to a reconciled supplier's records
  // (OnRecordAppended).
  void OnPutIssued(const StateKey& key, size_t /*trace_index*/) override {
    if (!reconciled_.empty()) runtime_puts_.Issued(key);
  }
  void OnPutResult(const StateKey& key, uint64_t /*value_digest*/, const Status& /*status*/,
                   size_t /*trace_index*/) override {
    if (!reconciled_.empty()) runtime_puts_.Ended(key);
  }
  void OnSavedStateRead(const StateKey& key, const ActionState* saved, size_t trace_index) override;
  void OnReconciled(const CallIdentity& call, const CallResult& slot, ReconcileAnswer answer,
                    const std::optional<CallResult>& saved, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) override;
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  // From the first saved slot that is not its call, the saved slots are
  // discarded (Flink Agents' rule): none of them is reconciled.
  void OnSavedCallMismatch(const CallIdentity& call, const CallArgument& argument, const CallResult& saved,
                           size_t trace_index) override;

 private:
  struct Read {
    std::vector<CallResult> slots;  // the saved call results the run started from
    size_t trace_index = 0;         // its get.hit line (0: nothing saved)
    std::set<int> asked;            // call indices reconciled since
    int discarded_from = -1;        // the first mismatched index, -1: none
  };
  // The saved slot of `call`'s very call in the last read of its state, or null.
  const CallResult* SavedSlot(const CallIdentity& call) const;

  std::set<std::string> reconciled_;  // supplier names
  // Some declaration of some supplier has a reconciler: only then may a
  // call be reconciled (OnReconciled), and only then are the reads and
  // discards below kept (a reconciled name implies one).
  bool any_reconciler_ = false;
  std::map<StateKey, Read> reads_;
  // Calls whose latest answer was done, by lineage: their call.reconciled line.
  std::map<std::pair<int, CallIdentity>, size_t> done_;
  // The call slots of each state's latest record in the log, by the
  // lineage that wrote it: a call must find its PENDING slot there.
  std::map<std::pair<int, StateKey>, std::vector<CallResult>> latest_slots_;
  // The saved call of each state's latest mismatch, by lineage, until the
  // runtime's next record of that state (OnRecordAppended).
  std::map<std::pair<int, StateKey>, CallIdentity> discards_;
  RuntimePuts runtime_puts_;
  int lineage_ = 0;
  bool stored_ = true;
};

}  // namespace durasim
