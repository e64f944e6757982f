// Mutant pending-as-hit: on replay, a PENDING call slot (the call started
// but its result was never saved) is taken for a saved result, so the
// action skips the call and carries on without its result.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class PendingAsHitRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool IsSavedResult(const CallResult& saved) const override;
};

}  // namespace durasim
