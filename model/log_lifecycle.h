// LogLifecycle: the harness's record of what happened to the state topic's
// log during a run: when each record was appended, which records left it
// (DeleteRecords, retention) and how often the topic was created. It is
// the truth the invalid-recovery oracle judges a checkpoint's marker by, and
// on librdkafka's mock cluster and a real broker the view of deletions the
// harness shows every reader (docs/backends.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/scheduler.h"
#include "store/action_state.h"
#include "store/log_client.h"
#include "store/recovery_marker.h"

namespace durasim {

class LogLifecycle {
 public:
  explicit LogLifecycle(int32_t partitions) : starts_(static_cast<size_t>(partitions), 0), appended_at_(starts_.size()) {}

  // A record the harness saw appended (or discovered) at `at`; a tombstone
  // (an empty value) is kept with the state it names.
  void NoteAppend(const LogRecord& record, SimTime at);
  // A record from outside the run (a `foreign` step) at `at`: retention
  // applies to it, but it is no tombstone or cleanup record of the store's.
  void NoteForeignAppend(const LogRecord& record, SimTime at);
  // A checkpoint with boundaries `completed` completed in the incarnation
  // that took it, with tombstones on: its prune is a committed cleanup.
  void NoteCommittedPrune(const CompletedBoundaries& completed) { committed_prunes_.push_back(completed); }
  // The log start of `partition` moved to `start` (never backwards).
  void NoteDeleted(int32_t partition, int64_t start);

  // The topic was deleted and created again: its offsets start over.
  void NoteRecreated();
  // `added` empty partitions joined the topic (CreatePartitions).
  void NotePartitionsAdded(int32_t added);
  int32_t partitions() const { return static_cast<int32_t>(starts_.size()); }
  // Compaction removed the records at `positions`, superseded by later ones.
  void NoteCompacted(const std::vector<std::pair<int32_t, int64_t>>& positions);
  // Compaction removed the tombstones at `positions`, their delete horizon
  // passed. They stay in the oracle's view: the states they removed are
  // still gone (a checkpoint that needs one is still stale).
  void NoteTombstonesExpired(const std::vector<std::pair<int32_t, int64_t>>& positions);
  // A compaction reached every tombstone in the log: those without a delete
  // horizon get `horizon` (KIP-534: the cleaner stamps it when it first
  // cleans the tombstone's batch).
  void StampTombstones(SimTime horizon);
  // Whether the tombstone at (partition, offset) has a horizon at or before `now`.
  bool TombstoneExpired(int32_t partition, int64_t offset, SimTime now) const {
    auto it = horizons_.find({partition, offset});
    return it != horizons_.end() && it->second <= now;
  }
  // Whether compaction removed the record at (partition, offset).
  bool Removed(int32_t partition, int64_t offset) const { return removed_.count({partition, offset}) != 0; }

  // The log start of each partition, by partition, as deletions left it.
  const std::vector<int64_t>& starts() const { return starts_; }
  int64_t start(int32_t partition) const { return starts_.at(static_cast<size_t>(partition)); }
  // 1, plus one per re-creation of the topic.
  int64_t incarnation() const { return incarnation_; }

  // Retention: for each partition whose oldest records were appended more
  // than `retention` before `now`, the offset below which they all are
  // (Kafka removes whole segments from the start; here, records).
  std::vector<std::pair<int32_t, int64_t>> Expired(SimTime now, SimDuration retention) const;

  // Why a restore cannot use `marker` of a checkpoint taken in topic
  // incarnation `incarnation`, or nothing when the log still holds every
  // record from it: the topic was re-created since, or an offset lies below
  // its partition's log start, or the log holds, at or after the marker, a
  // tombstone of a committed cleanup for a state past `completed` (the
  // checkpoint's boundaries): a state this checkpoint still needs is gone
  // (#691, #1101). A tombstone no completed checkpoint's prune accounts for
  // (a prune before completion) does not make a marker stale. Partitions
  // added since the checkpoint (past the marker's) are read from offset 0,
  // where they began: stale when records of one were deleted.
  std::optional<std::string> WhyStale(const RecoveryMarker& marker, int64_t incarnation,
                                      const CompletedBoundaries& completed = {}) const;
  // For a design whose rebuild requires the marker to list every partition
  // of the log (fluss: a bucket-set mismatch fails the restore, as in Flink
  // Agents 0.3.0), the first partition `marker` does not list, or nothing.
  // The harness must know this rule of the design: a Kafka design reads an
  // unlisted partition from offset 0 (added since the checkpoint).
  std::optional<std::string> WhyNotEveryPartition(const RecoveryMarker& marker) const;
  // Why a store that rejects a changed partition set (`store_options:
  // {added_partitions: reject}`) must reject `marker`: it names fewer
  // partitions than the topic has. They were added after the store that
  // wrote it connected: before the checkpoint, or after it (a running
  // job's clients keep the partition count they connected with).
  std::optional<std::string> WhyPartitionsAdded(const RecoveryMarker& marker) const;

 private:
  std::vector<int64_t> starts_;
  std::vector<std::map<int64_t, SimTime>> appended_at_;  // by partition: offset -> when
  std::map<std::pair<int32_t, int64_t>, StateKey> tombstones_;  // (partition, offset) -> the state it removes
  // (partition, offset) -> a cleanup record's input key and sequence number.
  std::map<std::pair<int32_t, int64_t>, std::pair<std::string, int64_t>> cleanups_;
  std::map<std::pair<int32_t, int64_t>, SimTime> horizons_;  // tombstone -> its delete horizon
  std::vector<CompletedBoundaries> committed_prunes_;
  std::set<std::pair<int32_t, int64_t>> removed_;  // positions compaction removed
  int64_t incarnation_ = 1;
};

}  // namespace durasim
