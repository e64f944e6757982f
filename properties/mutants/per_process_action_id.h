// Mutant per-process-action-id: the action part of a state key depends on
// the process (apache/flink-agents #1094: it came from a per-JVM hash code).
// Each attempt is a new process, so here the action hash is mixed with the
// attempt number. After a restore the saved states of the replayed inputs
// are not found under the new names: their actions run again and call their
// suppliers again.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class PerProcessActionIdRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  uint64_t ActionIdentity(const std::string& action_name) const override;
};

}  // namespace durasim
