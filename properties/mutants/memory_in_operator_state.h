// Mutant memory-in-operator-state: short-term memory kept with the subtask
// (operator state) instead of with the key (keyed state). On a restore at
// the job's own parallelism every key stays where it was and nothing
// changes; on a rescale a key that moves to another subtask arrives
// without its memory, so the actions that recall it read 0 and answer
// differently. Only a seed that draws memory and a rescale together reaches
// it (pairwise coverage, docs/exploring.md): memory alone, or a rescale of
// keys without memory, passes.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class MemoryInOperatorStateRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  KeyedStates RestoredKeyedStates(const Checkpoint& checkpoint) const override;
};

}  // namespace durasim
