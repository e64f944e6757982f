// OwnMarkerOnlyRuntime implementation.
#include "properties/mutants/own_marker_only.h"

namespace durasim {

std::vector<RecoveryMarker> OwnMarkerOnlyRuntime::RebuildMarkers(const Checkpoint& checkpoint) const {
  const size_t own = static_cast<size_t>(subtask().index);
  if (own < checkpoint.markers.size()) return {checkpoint.markers[own]};  // the bug: its own entry only
  return AgentRuntime::RebuildMarkers(checkpoint);  // a subtask the old job did not have: no entry of its own
}

}  // namespace durasim
