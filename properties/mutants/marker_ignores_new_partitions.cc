// MarkerIgnoresNewPartitionsStore implementation.
#include "properties/mutants/marker_ignores_new_partitions.h"

namespace durasim {

Status MarkerIgnoresNewPartitionsStore::ReadFromMarker(const RecoveryMarker& marker,
                                                       const std::vector<PartitionOffsets>& offsets) {
  // The marker's partitions only (the bug); the production store reads the
  // partitions past them from offset 0.
  for (const auto& [partition, from] : marker.offsets) {
    if (Status read = ReadPartition(partition, from, offsets[static_cast<size_t>(partition)]); !read.ok()) return read;
  }
  return Status::Ok();
}

}  // namespace durasim
