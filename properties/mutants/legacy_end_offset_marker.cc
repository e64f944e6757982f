// LegacyEndOffsetMarkerStore implementation.
#include "properties/mutants/legacy_end_offset_marker.h"

namespace durasim {

Result<RecoveryMarker> LegacyEndOffsetMarkerStore::GetRecoveryMarker(const CompletedBoundaries& /*completed*/) {
  Result<std::vector<PartitionOffsets>> offsets = client_.Offsets();
  if (!offsets.ok()) return offsets.status();
  Result<TopicIdentity> topic = client_.Topic();
  if (!topic.ok()) return topic.status();
  // Versioned and named like the production marker: only the offsets are wrong.
  RecoveryMarker marker = MarkerOf(*topic, {});
  for (int32_t p = 0; p < static_cast<int32_t>(offsets->size()); ++p) marker.offsets[p] = (*offsets)[p].end;
  return marker;
}

}  // namespace durasim
