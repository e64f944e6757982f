// LogLifecycle implementation.
#include "model/log_lifecycle.h"

#include "store/format.h"
#include "store/state_codec.h"

#include "store/check.h"

namespace durasim {

void LogLifecycle::NoteAppend(const LogRecord& record, SimTime at) {
  DURASIM_CHECK_GE(record.partition, 0);
  DURASIM_CHECK_LT(static_cast<size_t>(record.partition), appended_at_.size());
  appended_at_[static_cast<size_t>(record.partition)].emplace(record.offset, at);
  if (std::optional<std::string> cleaned = ParseCleanupKey(record.key)) {
    if (std::optional<int64_t> seq = ParseCleanupValue(record.value)) {
      cleanups_[{record.partition, record.offset}] = {*cleaned, *seq};
    }
    return;
  }
  if (!record.value.empty()) return;
  Result<StateKey> state_key = ParseRecordKey(record.key);
  if (state_key.ok()) tombstones_[{record.partition, record.offset}] = std::move(state_key).value();
}

void LogLifecycle::NoteForeignAppend(const LogRecord& record, SimTime at) {
  DURASIM_CHECK_GE(record.partition, 0);
  DURASIM_CHECK_LT(static_cast<size_t>(record.partition), appended_at_.size());
  appended_at_[static_cast<size_t>(record.partition)].emplace(record.offset, at);
}

void LogLifecycle::NoteDeleted(int32_t partition, int64_t start) {
  int64_t& current = starts_.at(static_cast<size_t>(partition));
  DURASIM_CHECK_GE(start, current);  // a log start never moves back
  current = start;
  std::map<int64_t, SimTime>& times = appended_at_[static_cast<size_t>(partition)];
  times.erase(times.begin(), times.lower_bound(start));
  tombstones_.erase(tombstones_.lower_bound({partition, 0}), tombstones_.lower_bound({partition, start}));
  cleanups_.erase(cleanups_.lower_bound({partition, 0}), cleanups_.lower_bound({partition, start}));
  horizons_.erase(horizons_.lower_bound({partition, 0}), horizons_.lower_bound({partition, start}));
}

void LogLifecycle::NoteRecreated() {
  starts_.assign(starts_.size(), 0);
  appended_at_.assign(appended_at_.size(), {});
  tombstones_.clear();
  cleanups_.clear();
  horizons_.clear();
  committed_prunes_.clear();
  removed_.clear();
  ++incarnation_;
}

void LogLifecycle::NotePartitionsAdded(int32_t added) {
  DURASIM_CHECK_GE(added, 1);
  starts_.resize(starts_.size() + static_cast<size_t>(added), 0);
  appended_at_.resize(starts_.size());
}

void LogLifecycle::NoteCompacted(const std::vector<std::pair<int32_t, int64_t>>& positions) {
  for (const auto& [partition, offset] : positions) {
    removed_.insert({partition, offset});
    appended_at_.at(static_cast<size_t>(partition)).erase(offset);
    tombstones_.erase({partition, offset});
    cleanups_.erase({partition, offset});
    horizons_.erase({partition, offset});
  }
}

void LogLifecycle::NoteTombstonesExpired(const std::vector<std::pair<int32_t, int64_t>>& positions) {
  for (const auto& [partition, offset] : positions) {
    DURASIM_CHECK(tombstones_.count({partition, offset}) != 0 || horizons_.count({partition, offset}) != 0);
    removed_.insert({partition, offset});
    appended_at_.at(static_cast<size_t>(partition)).erase(offset);
    horizons_.erase({partition, offset});
  }
}

void LogLifecycle::StampTombstones(SimTime horizon) {
  for (const auto& [position, state_key] : tombstones_) {
    if (removed_.count(position) == 0) horizons_.emplace(position, horizon);
  }
}

std::vector<std::pair<int32_t, int64_t>> LogLifecycle::Expired(SimTime now, SimDuration retention) const {
  std::vector<std::pair<int32_t, int64_t>> expired;
  for (size_t p = 0; p < appended_at_.size(); ++p) {
    int64_t before = starts_[p];
    // From the start, in offset order (compaction leaves gaps): stop at the
    // first record that is young enough.
    for (const auto& [offset, at] : appended_at_[p]) {
      if (now - at <= retention) break;
      before = offset + 1;
    }
    if (before > starts_[p]) expired.emplace_back(static_cast<int32_t>(p), before);
  }
  return expired;
}

std::optional<std::string> LogLifecycle::WhyNotEveryPartition(const RecoveryMarker& marker) const {
  for (size_t p = 0; p < starts_.size(); ++p) {
    if (!marker.offsets.contains(static_cast<int32_t>(p))) {
      return fmt::format("the marker lists no offset for partition {} of {}: a bucket-set mismatch", p,
                         starts_.size());
    }
  }
  return std::nullopt;
}

std::optional<std::string> LogLifecycle::WhyPartitionsAdded(const RecoveryMarker& marker) const {
  if (marker.offsets.size() >= starts_.size()) return std::nullopt;
  return fmt::format("the marker names {} of the topic's {} partitions, and the store rejects a changed partition set",
                     marker.offsets.size(), starts_.size());
}

std::optional<std::string> LogLifecycle::WhyStale(const RecoveryMarker& marker, int64_t incarnation,
                                                  const CompletedBoundaries& completed) const {
  if (incarnation != incarnation_) {
    return fmt::format("the topic was re-created since the checkpoint (incarnation {}, now {})", incarnation,
                       incarnation_);
  }
  for (const auto& [partition, offset] : marker.offsets) {
    if (partition < 0 || static_cast<size_t>(partition) >= starts_.size()) continue;  // the store's check
    if (offset < starts_[static_cast<size_t>(partition)]) {
      return fmt::format("partition {}: the marker's offset {} is below the log start {}", partition, offset,
                         starts_[static_cast<size_t>(partition)]);
    }
  }
  // Partitions the marker does not name were added after the checkpoint
  // (they are numbered on from the marker's last): a restore reads each
  // from offset 0.
  const size_t marked = marker.offsets.empty() ? 0 : static_cast<size_t>(marker.offsets.rbegin()->first) + 1;
  for (size_t p = marked; p < starts_.size(); ++p) {
    if (starts_[p] > 0) {
      return fmt::format("partition {} was added after the checkpoint and its records below offset {} were deleted",
                         p, starts_[p]);
    }
  }
  auto finished_at = [](const CompletedBoundaries& boundaries, const std::string& key) {
    auto it = boundaries.find(key);
    return it == boundaries.end() ? int64_t{0} : it->second;
  };
  for (const auto& [position, state_key] : tombstones_) {
    auto from = marker.offsets.find(position.first);
    const bool added_since = static_cast<size_t>(position.first) >= marked;  // read from 0
    if (!added_since && (from == marker.offsets.end() || position.second < from->second)) continue;  // not read
    if (state_key.seq <= finished_at(completed, state_key.key)) continue;        // not needed
    for (const CompletedBoundaries& pruned : committed_prunes_) {
      if (state_key.seq > finished_at(pruned, state_key.key)) continue;
      return fmt::format("partition {} offset {}: a committed cleanup's tombstone removes key {:?} sequence number {}, "
                         "which the checkpoint still needs",
                         position.first, position.second, state_key.key, state_key.seq);
    }
  }
  // A cleanup record (written only when compaction removes tombstones) says
  // the same of every state of its key up to its sequence number.
  for (const auto& [position, cleanup] : cleanups_) {
    auto from = marker.offsets.find(position.first);
    const bool added_since = static_cast<size_t>(position.first) >= marked;
    if (!added_since && (from == marker.offsets.end() || position.second < from->second)) continue;  // not read
    const auto& [key, seq] = cleanup;
    if (seq <= finished_at(completed, key)) continue;  // not needed
    for (const CompletedBoundaries& pruned : committed_prunes_) {
      if (seq > finished_at(pruned, key)) continue;
      return fmt::format("partition {} offset {}: a committed cleanup's record removes key {:?} up to sequence number "
                         "{}, which the checkpoint still needs",
                         position.first, position.second, key, seq);
    }
  }
  return std::nullopt;
}

}  // namespace durasim
