// RecoveryMarker checks.
#include "store/recovery_marker.h"

#include <set>

namespace durasim {

RecoveryMarker MarkerOf(const TopicIdentity& topic, MarkerOffsets offsets) {
  RecoveryMarker marker;
  marker.topic = topic;
  marker.offsets = std::move(offsets);
  return marker;
}

Status CheckMarker(const RecoveryMarker& marker, const TopicIdentity& topic,
                   const std::vector<PartitionOffsets>& offsets) {
  if (marker.version != RecoveryMarker::kVersion) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker version {} is not supported (this store reads version {})",
                              marker.version, RecoveryMarker::kVersion));
  }
  if (marker.topic.name != topic.name) {
    return Status(StatusCode::kInvalidRecovery, fmt::format("recovery marker is for topic {:?}, the store reads {:?}",
                                                            marker.topic.name, topic.name));
  }
  if (marker.topic.incarnation != topic.incarnation) {
    // The incarnations themselves are left out: they differ between
    // backends (docs/backends.md), and the message reaches the trace.
    return Status(StatusCode::kInvalidRecovery,
                  "recovery marker is for an earlier incarnation of the topic, which was deleted and created again "
                  "since");
  }
  std::set<int32_t> topic_partitions;
  for (int32_t p = 0; p < static_cast<int32_t>(offsets.size()); ++p) topic_partitions.insert(p);
  std::set<int32_t> marker_partitions;
  for (const auto& [partition, offset] : marker.offsets) marker_partitions.insert(partition);
  if (marker_partitions != topic_partitions) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker partitions {} do not match the topic's partitions {}",
                              marker_partitions, topic_partitions));
  }
  for (const auto& [partition, from] : marker.offsets) {
    const PartitionOffsets range = offsets[static_cast<size_t>(partition)];
    if (from < range.start || from > range.end) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("recovery marker offset {} for partition {} is outside the log [{}, {}]: {}", from,
                                partition, range.start, range.end,
                                from < range.start ? "below the log start, the records it needs were deleted"
                                                   : "past the log end"));
    }
  }
  return Status::Ok();
}

}  // namespace durasim
