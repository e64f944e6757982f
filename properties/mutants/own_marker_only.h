// Mutant own-marker-only: a restored subtask rebuilds from the marker it
// took itself (its entry in the union list, by index) instead of the
// per-partition minimum over all of them. A key that moved to it on rescale
// had its saved states below the marker of the subtask that owned it
// before, so they are not found and its calls are made again.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class OwnMarkerOnlyRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  std::vector<RecoveryMarker> RebuildMarkers(const Checkpoint& checkpoint) const override;
};

}  // namespace durasim
