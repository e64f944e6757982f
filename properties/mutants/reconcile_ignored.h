// Mutant reconcile-ignored: the runtime never asks a reconciler. A PENDING
// call whose supplier has one is made again, as if it had none, though the
// outside world may already have done it (the reconciler would have said
// so).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ReconcileIgnoredRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool AsksReconciler(const CallResult& /*slot*/) const override { return false; }  // the bug
};

}  // namespace durasim
