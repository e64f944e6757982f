// Mutant resume-unowned-keys: after a restore every subtask resumes every
// in-flight key of the checkpoint, not only those it owns (apache/flink-agents
// #581). The same queued action runs in two subtasks; the non-owner's store
// has none of its saved states, so it calls the suppliers again.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class ResumeUnownedKeysRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  KeyedStates RestoredKeyedStates(const Checkpoint& checkpoint) const override;
  std::vector<std::string> RestoredProcessingKeys(const Checkpoint& checkpoint) const override;
  bool ResumesKey(const std::string& /*key*/) const override { return true; }  // the bug: owned or not
};

}  // namespace durasim
