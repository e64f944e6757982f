// Mutant leak-checkpoint-map-on-abort: the runtime keeps an aborted
// checkpoint's per-checkpoint sequence map (Flink Agents'
// checkpointIdToSeqNums) forever; no later completion subsumes it, so the
// map grows with every abort for the life of the job.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class LeakCheckpointMapOnAbortRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  void ReleaseAbortedCheckpoint(const std::string& id) override;
};

}  // namespace durasim
