// Mutant stale-processing-keys: a restored subtask keeps every entry of the
// union list of processing keys in its operator state, owned or not and
// duplicates included; it resumes only the keys it owns, but snapshots the
// foreign ones again, so the next restore's union list names a key twice
// and its owner resumes it twice (apache/flink-agents #824).
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
