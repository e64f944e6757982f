// Mutant failure-as-miss: on replay, a saved FAILED call result is taken
// for a cache miss, so the supplier is called again for a call whose
// terminal result the log already holds (Flink Agents re-raises it).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class FailureAsMissRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool IsSavedResult(const CallResult& saved) const override;
};

}  // namespace durasim
