// Mutant reused-failure-not-a-try: after a restore, a retried call's saved
// failures are re-raised but not counted as tries, so the restored action
// starts its retry budget over and the call is tried more often than its
// budget allows (a retry counter kept in memory instead of derived from
// the saved results).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ReusedFailureNotATryRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  int64_t TriesOf(bool reused) const override;
};

}  // namespace durasim
