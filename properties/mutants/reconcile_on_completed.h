// Mutant reconcile-on-completed: the runtime asks a call's reconciler about
// every saved slot of that call, one with a saved result too, and takes its
// answer over the saved result: a completed call is second-guessed (made
// again on not done, failed on unknown).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ReconcileOnCompletedRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool AsksReconciler(const CallResult& /*slot*/) const override { return true; }  // the bug
};

}  // namespace durasim
