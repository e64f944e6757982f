// Mutant prune-on-snapshot: the states of inputs finished at a checkpoint
// are pruned when the checkpoint is taken instead of when it completes. If
// that checkpoint then aborts (or is never confirmed), a restore goes back
// to the previous checkpoint, which still needs them.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class PruneOnSnapshotRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;
  void SnapshotTaken(const std::string& id) override;
};

}  // namespace durasim
