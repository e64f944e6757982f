// Mutant no-pending-before-reconcilable-call: with `durable: {pending:
// reconcilable}`, the runtime persists every durable call once, at its
// completion, those whose supplier has a reconciler too. A crash while such
// a call is in flight then leaves no PENDING slot: after the restore its
// reconciler is never asked, and a call the outside world may have done is
// made again (reconcile: a call of a reconciled supplier is made only once
// the log holds its PENDING slot).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class NoPendingBeforeReconcilableCallRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool SavesPendingFirst(const SupplierSpec& supplier) const override {
    if (world_.scenario().durable.pending == PendingSlots::kReconcilable) return false;  // the bug
    return AgentRuntime::SavesPendingFirst(supplier);
  }
};

}  // namespace durasim
