// Markers written by hand (model/hand_made_markers.h).
#include "model/hand_made_markers.h"

#include <fmt/ranges.h>

#include "model/checkpoint.h"

#include "store/check.h"
#include "store/format.h"

namespace durasim {

std::vector<RecoveryMarker> HandMadeMarkers(const std::vector<HandMadeMarkerSpec>& specs, const RecoveryMarker& own,
                                            const std::vector<int64_t>& log_ends) {
  std::vector<RecoveryMarker> markers;
  for (const HandMadeMarkerSpec& spec : specs) {
    RecoveryMarker marker = own;
    if (spec.version) marker.version = *spec.version;
    if (spec.topic) marker.topic.name = *spec.topic;
    switch (spec.offsets) {
      case HandMadeMarkerSpec::Offsets::kCheckpoint:
        break;
      case HandMadeMarkerSpec::Offsets::kLogEnd:
        for (auto& [partition, offset] : marker.offsets) {
          DURASIM_CHECK_LT(static_cast<size_t>(partition), log_ends.size());
          offset = log_ends[static_cast<size_t>(partition)];
        }
        break;
      case HandMadeMarkerSpec::Offsets::kStated:
        marker.offsets = spec.stated;
        break;
    }
    if (marker.version == RecoveryMarker::kLegacyVersion) {
      // The bare offset map Flink Agents wrote before #1101.
      marker.topic = TopicIdentity{};
      marker.completed.clear();
    }
    markers.push_back(std::move(marker));
  }
  return markers;
}

std::optional<std::string> WhyHandMadeUnusable(const std::vector<RecoveryMarker>& markers,
                                               const TopicIdentity& own_topic, bool tombstones,
                                               const std::vector<int64_t>& log_ends) {
  if (markers.empty()) return "the hand-made marker list is empty";
  for (size_t i = 0; i < markers.size(); ++i) {
    const RecoveryMarker& marker = markers[i];
    if (marker.version != RecoveryMarker::kLegacyVersion && marker.version != RecoveryMarker::kVersion) {
      return fmt::format("hand-made marker {} has version {}, which no store writes", i + 1, marker.version);
    }
    if (marker.version == RecoveryMarker::kVersion && marker.topic.name != own_topic.name) {
      return fmt::format("hand-made marker {} names topic {:?}, not the state topic", i + 1, marker.topic.name);
    }
    if (marker.version == RecoveryMarker::kLegacyVersion && tombstones) {
      return fmt::format("hand-made marker {} is a version-1 marker, without the completed boundaries a store with "
                         "tombstones needs",
                         i + 1);
    }
  }
  const RecoveryMarker merged = MinimumMarker(markers);
  int32_t expected = 0;
  for (const auto& [partition, offset] : merged.offsets) {
    if (partition != expected++ || static_cast<size_t>(partition) >= log_ends.size()) {
      return fmt::format("the hand-made markers name partitions that are not 0..n-1 of the topic's {}",
                         log_ends.size());
    }
    if (offset > log_ends[static_cast<size_t>(partition)]) {
      return fmt::format("the hand-made markers' offset {} for partition {} is past its end {}", offset, partition,
                         log_ends[static_cast<size_t>(partition)]);
    }
  }
  if (merged.offsets.empty()) return "the hand-made markers name no partition";
  return std::nullopt;
}

std::string DescribeHandMadeMarker(const RecoveryMarker& marker, const TopicIdentity& own_topic) {
  if (own_topic.name.empty() && marker.topic.name.empty()) return fmt::format("{}", marker.offsets);  // fluss: offsets only
  if (marker.version == RecoveryMarker::kLegacyVersion || marker.topic.name == own_topic.name) {
    return fmt::format("v{} {}", marker.version, marker.offsets);
  }
  return fmt::format("v{} topic={:?} {}", marker.version, marker.topic.name, marker.offsets);
}

}  // namespace durasim
