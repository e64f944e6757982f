// LegacyMarkerIgnoresNewPartitionsStore implementation.
#include "properties/mutants/legacy_marker_ignores_new_partitions.h"

namespace durasim {

Status LegacyMarkerIgnoresNewPartitionsStore::RebuildFromList(const std::vector<RecoveryMarker>& markers) {
  legacy_ = HasLegacyMarker(markers);
  const Status rebuilt = MarkerIgnoresNewPartitionsStore::RebuildFromList(markers);
  legacy_ = false;
  return rebuilt;
}

Status LegacyMarkerIgnoresNewPartitionsStore::ReadFromMarker(const RecoveryMarker& marker,
                                                             const std::vector<PartitionOffsets>& offsets) {
  // The marker's partitions only on the legacy path (the bug); the current
  // path as the production store reads.
  if (legacy_) return MarkerIgnoresNewPartitionsStore::ReadFromMarker(marker, offsets);
  return KafkaActionStateStore::ReadFromMarker(marker, offsets);
}

}  // namespace durasim
