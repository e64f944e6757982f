// RecoveryMarker: what a checkpoint saves for the store, and the checks a
// rebuild makes before it reads anything (Flink Agents' #1101 design): a
// version, the topic's name and identity (its incarnation: a topic deleted
// and re-created under the same name is another topic) and, per partition,
// the offset from which a restore must read.
//
// A marker prints as its offsets only (`{0: 3, 1: 0}`), as the bare
// partition -> offset map it replaced did, so traces keep their text; the
// identity is named in rejection messages.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "store/log_client.h"
#include "store/status.h"

namespace durasim {

// Partition -> offset.
using MarkerOffsets = std::map<int32_t, int64_t>;

// Input key -> the last sequence number whose run finished, as captured by a
// checkpoint's keyed state. The runtime owns it; the store keeps no copy.
using CompletedBoundaries = std::map<std::string, int64_t>;

struct RecoveryMarker {
  // 1: offsets only (before #1101; never written by this store).
  // 2: version, topic name and identity, offsets.
  static constexpr int32_t kVersion = 2;

  int32_t version = kVersion;
  TopicIdentity topic;
  MarkerOffsets offsets;
  // With tombstones: the checkpoint's completed boundaries (key -> last
  // finished sequence number). A committed cleanup that pruned a state past
  // them (one this checkpoint still needs) makes it unrestorable (#691,
  // #1101). Empty without tombstones.
  CompletedBoundaries completed;

  bool operator==(const RecoveryMarker&) const = default;
};

// A current-version marker of `topic` with `offsets`.
RecoveryMarker MarkerOf(const TopicIdentity& topic, MarkerOffsets offsets);

// Whether a rebuild may read the log from `marker`, given the topic the
// client is connected to and its partitions' offsets. kInvalidRecovery naming
// what it found: an unknown version, another topic or an earlier incarnation
// of it, a partition set that differs, an offset below the log start (the
// records were deleted) or past its end.
Status CheckMarker(const RecoveryMarker& marker, const TopicIdentity& topic,
                   const std::vector<PartitionOffsets>& offsets);

}  // namespace durasim

template <>
struct fmt::formatter<durasim::RecoveryMarker> : fmt::formatter<durasim::MarkerOffsets> {
  auto format(const durasim::RecoveryMarker& marker, format_context& ctx) const {
    return fmt::formatter<durasim::MarkerOffsets>::format(marker.offsets, ctx);
  }
};
