// KafkaLog implementation.
#include "model/kafka_log.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

KafkaLog::KafkaLog(int32_t partitions) : partitions_(static_cast<size_t>(partitions)) {
  DURASIM_CHECK_GE(partitions, 1);
}

TopicIdentity KafkaLog::topic() const {
  return TopicIdentity{std::string(kModelTopicName), "model-" + std::to_string(incarnation_)};
}

KafkaLog::Partition& KafkaLog::At(int32_t partition) {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partitions());
  return partitions_[static_cast<size_t>(partition)];
}

const KafkaLog::Partition& KafkaLog::At(int32_t partition) const {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partitions());
  return partitions_[static_cast<size_t>(partition)];
}

std::vector<LogRecord>::const_iterator KafkaLog::Partition::LowerBound(int64_t offset) const {
  return std::lower_bound(records.begin(), records.end(), offset,
                          [](const LogRecord& record, int64_t o) { return record.offset < o; });
}

RecordPosition KafkaLog::AppendUnheard(int32_t partition, std::string key, std::string value) {
  Partition& log = At(partition);
  const int64_t offset = log.next++;
  // Offsets increase from the log start.
  if (!log.records.empty()) DURASIM_CHECK_LT(log.records.back().offset, offset);
  log.records.push_back(LogRecord{partition, offset, std::move(key), std::move(value)});
  return RecordPosition{partition, offset};
}

RecordPosition KafkaLog::Append(int32_t partition, std::string key, std::string value) {
  const RecordPosition position = AppendUnheard(partition, std::move(key), std::move(value));
  if (on_append_) on_append_(At(partition).records.back());
  return position;
}

PartitionOffsets KafkaLog::Offsets(int32_t partition) const {
  const Partition& log = At(partition);
  return PartitionOffsets{log.start, log.end()};
}

std::vector<LogRecord> KafkaLog::Read(int32_t partition, int64_t from, int64_t to) const {
  const Partition& log = At(partition);
  std::vector<LogRecord> out;
  for (auto it = log.LowerBound(std::max(from, log.start)); it != log.records.end() && it->offset < to; ++it) {
    out.push_back(*it);
  }
  return out;
}

const LogRecord* KafkaLog::Find(int32_t partition, int64_t offset) const {
  if (partition < 0 || partition >= partitions()) return nullptr;
  const Partition& log = At(partition);
  auto it = log.LowerBound(offset);
  if (it == log.records.end() || it->offset != offset) return nullptr;
  return &*it;
}

bool KafkaLog::Corrupt(int32_t partition, int64_t offset) {
  if (Find(partition, offset) == nullptr) return false;
  Partition& log = At(partition);
  LogRecord& record = log.records[static_cast<size_t>(log.LowerBound(offset) - log.records.cbegin())];
  // Only the value is garbage: the record keeps its place in the log.
  DURASIM_CHECK(record.partition == partition && record.offset == offset);
  record.value = kCorruptValue;
  return true;
}

int64_t KafkaLog::DeleteRecords(int32_t partition, int64_t before_offset) {
  Partition& log = At(partition);
  const int64_t before = std::min(before_offset, log.end());
  if (before <= log.start) return log.start;
  log.records.erase(log.records.begin(), log.records.begin() + (log.LowerBound(before) - log.records.cbegin()));
  log.start = before;
  return log.start;
}

void KafkaLog::Recreate() {
  partitions_ = std::vector<Partition>(partitions_.size());
  ++incarnation_;
}

void KafkaLog::AddPartitions(int32_t added) {
  DURASIM_CHECK_GE(added, 1);
  partitions_.resize(partitions_.size() + static_cast<size_t>(added));
}

Compaction KafkaLog::Compact(const TombstoneExpired& expired) {
  std::vector<std::vector<LogRecord>> all;
  for (const Partition& log : partitions_) all.push_back(log.records);
  Compaction removed = CompactionOf(all, expired);
  std::set<std::pair<int32_t, int64_t>> gone(removed.superseded.begin(), removed.superseded.end());
  gone.insert(removed.tombstones_expired.begin(), removed.tombstones_expired.end());
  for (Partition& log : partitions_) {
    std::erase_if(log.records, [&](const LogRecord& r) { return gone.count({r.partition, r.offset}) != 0; });
  }
  return removed;
}

std::vector<std::pair<int32_t, int64_t>> SupersededPositions(const std::vector<std::vector<LogRecord>>& partitions) {
  std::vector<std::pair<int32_t, int64_t>> superseded;
  for (const std::vector<LogRecord>& records : partitions) {
    std::map<std::string, int64_t> latest;  // key -> offset of its latest record
    for (const LogRecord& record : records) latest[record.key] = record.offset;
    for (const LogRecord& record : records) {
      if (latest[record.key] != record.offset) superseded.emplace_back(record.partition, record.offset);
    }
  }
  return superseded;
}

Compaction CompactionOf(const std::vector<std::vector<LogRecord>>& partitions, const TombstoneExpired& expired) {
  Compaction compaction;
  compaction.superseded = SupersededPositions(partitions);
  if (!expired) return compaction;
  const std::set<std::pair<int32_t, int64_t>> superseded(compaction.superseded.begin(), compaction.superseded.end());
  for (const std::vector<LogRecord>& records : partitions) {
    for (const LogRecord& record : records) {
      if (!record.value.empty() || superseded.count({record.partition, record.offset}) != 0) continue;
      if (expired(record.partition, record.offset)) compaction.tombstones_expired.emplace_back(record.partition, record.offset);
    }
  }
  return compaction;
}

Status CheckNotDeleted(int64_t start, int32_t partition, int64_t from) {
  if (from >= start) return Status::Ok();
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("read of partition {} from offset {}: below the log start {}, the records were deleted",
                            partition, from, start));
}

void ApplyCorruption(const CorruptedPositions& corrupted, std::vector<LogRecord>& records) {
  for (LogRecord& record : records) {
    if (corrupted.count({record.partition, record.offset}) != 0) record.value = kCorruptValue;
  }
}

size_t KafkaLog::total_records() const {
  size_t total = 0;
  for (const Partition& log : partitions_) total += log.records.size();
  return total;
}

}  // namespace durasim
