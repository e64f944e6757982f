// LegacyMarkerIgnoresNewPartitionsStore implementation.
#include "properties/mutants/legacy_marker_ignores_new_partitions.h"

#include "store/check.h"

namespace durasim {

Status LegacyMarkerIgnoresNewPartitionsStore::RebuildFromList(const std::vector<RecoveryMarker>& markers) {
  legacy_ = HasLegacyMarker(markers);
  const Status rebuilt = KafkaActionStateStore::RebuildFromList(markers);
  legacy_ = false;
  return rebuilt;
}

Status LegacyMarkerIgnoresNewPartitionsStore::ReadFromMarker(const RecoveryMarker& marker,
                                                             const std::vector<PartitionOffsets>& offsets) {
  if (!legacy_) return KafkaActionStateStore::ReadFromMarker(marker, offsets);
  // The marker's partitions only (the bug): the legacy path.
  for (const auto& [partition, from] : marker.offsets) {
    // Rebuild checked the marker (CheckMarker): partitions 0..n-1 of the
    // topic, each offset within its log.
    DURASIM_CHECK(partition >= 0 && static_cast<size_t>(partition) < offsets.size());
    const PartitionOffsets& range = offsets[static_cast<size_t>(partition)];
    DURASIM_CHECK(from >= range.start && from <= range.end);
    if (Status read = ReadPartition(partition, from, range); !read.ok()) return read;
  }
  return Status::Ok();
}

}  // namespace durasim
