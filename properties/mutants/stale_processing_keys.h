// Mutant stale-processing-keys: a restored subtask takes every processing
// key of the union list, owned or not, and keeps them in its operator state:
// its next snapshot lists them again, so a later restore resumes a key in
// several subtasks, or twice (apache/flink-agents #824).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class StaleProcessingKeysRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  std::vector<std::string> RestoredProcessingKeys(const Checkpoint& checkpoint) const override;
  std::vector<std::string> ProcessingKeys() const override;
};

}  // namespace durasim
