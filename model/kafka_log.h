// KafkaLog: the in-memory model of the broker's durable state: a topic with
// N partitions of append-only records, log start and end offsets, and
// availability windows. It survives crashes of the agent process; only the
// producer's unsent buffer and the runtime's memory are lost.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/scheduler.h"
#include "store/status.h"
#include "store/log_client.h"

namespace durasim {

// The name of the model's state topic.
inline constexpr std::string_view kModelTopicName = "durasim-action-state";

// What a corrupted record holds instead of its value: bytes that do not
// decode.
inline constexpr std::string_view kCorruptValue = "\x01garbage{";

// Positions (partition, offset) of corrupted records.
using CorruptedPositions = std::set<std::pair<int32_t, int64_t>>;

// The positions of the records compaction removes from `partitions` (each
// partition's records in offset order): every record with a later record
// of the same key in its partition.
std::vector<std::pair<int32_t, int64_t>> SupersededPositions(const std::vector<std::vector<LogRecord>>& partitions);

// Whether compaction may remove the tombstone at (partition, offset): its
// delete horizon has passed (log.delete_retention_ms).
using TombstoneExpired = std::function<bool(int32_t partition, int64_t offset)>;

// What one compaction removes: superseded records, and tombstones (each the
// latest record of its key) whose delete horizon passed.
struct Compaction {
  std::vector<std::pair<int32_t, int64_t>> superseded;
  std::vector<std::pair<int32_t, int64_t>> tombstones_expired;
  size_t removed() const { return superseded.size() + tombstones_expired.size(); }
};

// The compaction of `partitions` (each partition's records in offset order):
// SupersededPositions, and every tombstone left for which `expired` says
// so (none when `expired` is empty).
Compaction CompactionOf(const std::vector<std::vector<LogRecord>>& partitions, const TombstoneExpired& expired);

// Replaces the value of every record of `records` at a corrupted position:
// how a log whose bytes cannot be overwritten in place (librdkafka's mock
// cluster, a real broker) shows a corruption to the reader.
void ApplyCorruption(const CorruptedPositions& corrupted, std::vector<LogRecord>& records);

// A read from `from` of a partition whose log starts at `start`: kOk, or
// kInvalidRecovery when records it asks for were deleted (a consumer with
// auto.offset.reset=error gets OFFSET_OUT_OF_RANGE there).
Status CheckNotDeleted(int64_t start, int32_t partition, int64_t from);

class KafkaLog {
 public:
  explicit KafkaLog(int32_t partitions);

  int32_t partitions() const { return static_cast<int32_t>(partitions_.size()); }
  // The topic's name and incarnation (1 until the topic is re-created).
  TopicIdentity topic() const;
  int64_t incarnation() const { return incarnation_; }

  // Appends and returns the record's position. REQUIRES: the broker is up.
  RecordPosition Append(int32_t partition, std::string key, std::string value);
  // The same without telling the append listener: a record from outside the
  // run (a `foreign` step), which the run's incarnation never hears of.
  RecordPosition AppendUnheard(int32_t partition, std::string key, std::string value);
  // REQUIRES (both): 0 <= partition < partitions().
  PartitionOffsets Offsets(int32_t partition) const;
  // Records with offsets in [from, to) clipped to what the partition holds.
  std::vector<LogRecord> Read(int32_t partition, int64_t from, int64_t to) const;
  const LogRecord* Find(int32_t partition, int64_t offset) const;

  // Overwrites a stored value with bytes that do not decode, as a disk or
  // tool could. Returns false when there is no such record.
  bool Corrupt(int32_t partition, int64_t offset);

  // Kafka's DeleteRecords: the records of `partition` below `before_offset`
  // leave the log and its start moves there. An offset past the end is
  // clipped to the end; one at or below the start changes nothing. Returns
  // the new log start.
  int64_t DeleteRecords(int32_t partition, int64_t before_offset);
  // The topic is deleted and created again with as many partitions: every
  // record is gone, offsets start over at 0, and the incarnation moves on.
  void Recreate();
  // Kafka's log compaction, all of the log at once: for each record key
  // only its latest record stays, and a tombstone left goes too when
  // `expired` says its delete horizon passed (CompactionOf); offsets keep
  // their gaps and the log start and end do not move. Returns what it
  // removed.
  Compaction Compact(const TombstoneExpired& expired = {});
  // Kafka's CreatePartitions: `added` empty partitions join the topic after
  // the last one (partitions are numbered 0..N-1 and never removed).
  // REQUIRES: added >= 1.
  void AddPartitions(int32_t added);

  // Availability: the broker is unreachable before `until`.
  void SetDownUntil(SimTime until) { down_until_ = until; }
  bool IsUp(SimTime now) const { return now >= down_until_; }
  SimTime down_until() const { return down_until_; }
  // Slow fetches: before `until`, a fetch waits its whole wait and returns
  // nothing (a broker with no data for the fetch yet, a slow follower).
  void SetSlowFetchUntil(SimTime until) { slow_fetch_until_ = until; }
  bool FetchesSlow(SimTime now) const { return now < slow_fetch_until_; }
  SimTime slow_fetch_until() const { return slow_fetch_until_; }

  // Called after every append, with the stored record.
  void set_append_listener(std::function<void(const LogRecord&)> listener) { on_append_ = std::move(listener); }
  bool has_append_listener() const { return static_cast<bool>(on_append_); }

  size_t total_records() const;

 private:
  // Each partition's records from its log start, in increasing offset
  // order; compaction leaves gaps, so an offset is found by search.
  struct Partition {
    std::vector<LogRecord> records;
    int64_t start = 0;
    int64_t next = 0;  // the end offset: where the next append goes
    int64_t end() const { return next; }
    std::vector<LogRecord>::const_iterator LowerBound(int64_t offset) const;
  };
  Partition& At(int32_t partition);
  const Partition& At(int32_t partition) const;

  std::vector<Partition> partitions_;
  int64_t incarnation_ = 1;
  SimTime down_until_{0};
  SimTime slow_fetch_until_{0};
  std::function<void(const LogRecord&)> on_append_;
};

}  // namespace durasim
