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

#include <fmt/ranges.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "store/format.h"
#include "store/log_client.h"
#include "store/status.h"

namespace durasim {

// Partition -> offset.
using MarkerOffsets = std::map<int32_t, int64_t>;

// Input key -> the last sequence number whose run finished, as captured by a
// checkpoint's keyed state. The runtime owns it; the store keeps no copy.
using CompletedBoundaries = std::map<std::string, int64_t>;

struct RecoveryMarker {
  // 1: offsets only, the bare partition -> offset map Flink Agents wrote
  //    before #1101 (never written by this store; read, so that a job
  //    restores a checkpoint an older store took, but without the topic
  //    checks: it names no topic).
  // 2: version, topic name and identity, offsets.
  static constexpr int32_t kLegacyVersion = 1;
  static constexpr int32_t kVersion = 2;

  int32_t version = kVersion;
  TopicIdentity topic;
  MarkerOffsets offsets;
  // The checkpoint's completed boundaries (key -> last finished sequence
  // number). A committed cleanup that pruned a state past them (one this
  // checkpoint still needs) makes it unrestorable (#691, #1101). Written by
  // every Kafka store, tombstones or not (the log may hold an earlier
  // configuration's tombstones); empty in a version-1 or fluss marker.
  CompletedBoundaries completed;

  bool operator==(const RecoveryMarker&) const = default;
};

// A current-version marker of `topic` with `offsets`.
RecoveryMarker MarkerOf(const TopicIdentity& topic, MarkerOffsets offsets);

// Whether a rebuild may read the log from `marker`, given the topic the
// client is connected to and its partitions' offsets. kInvalidRecovery naming
// what it found: an unknown version, another topic or an earlier incarnation
// of it, a partition set that differs, an offset below the log start (the
// records were deleted) or past its end. A version-1 marker names no topic:
// only its partitions and offsets are checked. `reject_added_partitions`
// (StoreOptions): partitions added after the checkpoint are a mismatch too.
Status CheckMarker(const RecoveryMarker& marker, const TopicIdentity& topic,
                   const std::vector<PartitionOffsets>& offsets, bool reject_added_partitions = false);

// A checkpoint's union list of markers (every subtask's entry, or entries
// written by hand) as one: per partition the smallest offset, the completed
// boundaries of all. The merged version is 2 when any entry is (its topic
// theirs), else 1. kInvalidRecovery, naming the entry (1-based), for an
// empty list, an entry of a version no store writes, or version-2 entries
// that name different topics or incarnations.
Result<RecoveryMarker> MergeMarkers(const std::vector<RecoveryMarker>& markers);

// Whether any entry of `markers` is a version-1 marker.
bool HasLegacyMarker(const std::vector<RecoveryMarker>& markers);

}  // namespace durasim

template <>
struct fmt::formatter<durasim::RecoveryMarker> : fmt::formatter<durasim::MarkerOffsets> {
  auto format(const durasim::RecoveryMarker& marker, format_context& ctx) const {
    return fmt::formatter<durasim::MarkerOffsets>::format(marker.offsets, ctx);
  }
};
