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
                   const std::vector<PartitionOffsets>& offsets, bool reject_added_partitions) {
  if (marker.version != RecoveryMarker::kVersion && marker.version != RecoveryMarker::kLegacyVersion) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker version {} is not supported (this store reads versions {} and {})",
                              marker.version, RecoveryMarker::kLegacyVersion, RecoveryMarker::kVersion));
  }
  // A version-1 marker is the bare offset map: no topic to check.
  if (marker.version == RecoveryMarker::kVersion && marker.topic.name != topic.name) {
    // The store's own topic is left out: the operator configured it, and its
    // name differs between backends (the message reaches the trace).
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker is for topic {:?}, not the one the store reads", marker.topic.name));
  }
  if (marker.version == RecoveryMarker::kVersion && marker.topic.incarnation != topic.incarnation) {
    // The incarnations themselves are left out: they differ between
    // backends (docs/backends.md), and the message reaches the trace.
    return Status(StatusCode::kInvalidRecovery,
                  "recovery marker is for an earlier incarnation of the topic, which was deleted and created again "
                  "since");
  }
  // Kafka numbers a topic's partitions 0..N-1 and only ever adds some: a
  // marker of this incarnation names 0..n-1 with n <= N. The partitions past
  // n were added after the checkpoint, so every record they hold came after
  // it too, and a rebuild reads each from offset 0, where it began (the
  // offset a marker taken at their creation would name). Anything else is
  // no partition set this topic ever had.
  std::set<int32_t> topic_partitions;
  for (int32_t p = 0; p < static_cast<int32_t>(offsets.size()); ++p) topic_partitions.insert(p);
  std::set<int32_t> marker_partitions;
  for (const auto& [partition, offset] : marker.offsets) marker_partitions.insert(partition);
  std::set<int32_t> prefix;
  for (int32_t p = 0; p < static_cast<int32_t>(marker_partitions.size()); ++p) prefix.insert(p);
  if (marker_partitions.empty() || marker_partitions != prefix || marker_partitions.size() > offsets.size()) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker partitions {} are not a partition set of the topic, whose partitions "
                              "are {}",
                              marker_partitions, topic_partitions));
  }
  if (reject_added_partitions && marker_partitions.size() < offsets.size()) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("recovery marker partitions {} do not match the topic's partitions {}: this store "
                              "rejects a changed partition set",
                              marker_partitions, topic_partitions));
  }
  for (size_t p = marker_partitions.size(); p < offsets.size(); ++p) {
    if (offsets[p].start > 0) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("partition {} was added after the checkpoint (recovery marker partitions {}), and its "
                                "log starts at {}: records it held since it was added were deleted",
                                p, marker_partitions, offsets[p].start));
    }
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

Result<RecoveryMarker> MergeMarkers(const std::vector<RecoveryMarker>& markers) {
  if (markers.empty()) return Status(StatusCode::kInvalidRecovery, "the recovery marker list is empty");
  // One subtask's list, nearly every restore's: the merge of one marker is
  // the marker (a version-1 one names no topic), copied whole rather than
  // entry by entry.
  if (const RecoveryMarker& only = markers.front();
      markers.size() == 1 &&
      (only.version == RecoveryMarker::kVersion || only.version == RecoveryMarker::kLegacyVersion)) {
    RecoveryMarker merged = only;
    if (merged.version == RecoveryMarker::kLegacyVersion) merged.topic = TopicIdentity{};
    return merged;
  }
  RecoveryMarker merged;
  merged.version = RecoveryMarker::kLegacyVersion;
  const RecoveryMarker* first_current = nullptr;
  for (size_t i = 0; i < markers.size(); ++i) {
    const RecoveryMarker& marker = markers[i];
    if (marker.version != RecoveryMarker::kVersion && marker.version != RecoveryMarker::kLegacyVersion) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("recovery marker {} of {}: version {} is not supported (this store reads versions {} "
                                "and {})",
                                i + 1, markers.size(), marker.version, RecoveryMarker::kLegacyVersion,
                                RecoveryMarker::kVersion));
    }
    if (marker.version == RecoveryMarker::kVersion) {
      if (first_current == nullptr) {
        first_current = &marker;
        merged.version = RecoveryMarker::kVersion;
        merged.topic = marker.topic;
      } else if (!(marker.topic == first_current->topic)) {
        return Status(StatusCode::kInvalidRecovery,
                      fmt::format("recovery marker {} of {} is for topic {:?}{}, not an earlier one's: one job's "
                                  "markers name one topic",
                                  i + 1, markers.size(), marker.topic.name,
                                  marker.topic.name == first_current->topic.name ? " (another incarnation)" : ""));
      }
    }
    for (const auto& [partition, offset] : marker.offsets) {
      auto [it, inserted] = merged.offsets.emplace(partition, offset);
      if (!inserted && offset < it->second) it->second = offset;
    }
    merged.completed.insert(marker.completed.begin(), marker.completed.end());
  }
  return merged;
}

bool HasLegacyMarker(const std::vector<RecoveryMarker>& markers) {
  for (const RecoveryMarker& marker : markers) {
    if (marker.version == RecoveryMarker::kLegacyVersion) return true;
  }
  return false;
}

}  // namespace durasim
