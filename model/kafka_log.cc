// KafkaLog implementation.
#include "model/kafka_log.h"

#include <algorithm>

#include "store/check.h"

namespace durasim {

KafkaLog::KafkaLog(int32_t partitions) : partitions_(static_cast<size_t>(partitions)) {
  DURASIM_CHECK_GE(partitions, 1);
}

RecordPosition KafkaLog::Append(int32_t partition, std::string key, std::string value) {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partitions());
  std::vector<LogRecord>& records = partitions_[static_cast<size_t>(partition)];
  const int64_t offset = static_cast<int64_t>(records.size());
  // Offsets are dense and increasing: a record's offset is its index.
  if (!records.empty()) DURASIM_CHECK_EQ(records.back().offset + 1, offset);
  records.push_back(LogRecord{partition, offset, std::move(key), std::move(value)});
  if (on_append_) on_append_(records.back());
  return RecordPosition{partition, offset};
}

PartitionOffsets KafkaLog::Offsets(int32_t partition) const {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partitions());
  // No retention or compaction is modelled: the log starts at 0.
  return PartitionOffsets{0, static_cast<int64_t>(partitions_[static_cast<size_t>(partition)].size())};
}

std::vector<LogRecord> KafkaLog::Read(int32_t partition, int64_t from, int64_t to) const {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partitions());
  const std::vector<LogRecord>& records = partitions_[static_cast<size_t>(partition)];
  const int64_t end = std::min<int64_t>(to, static_cast<int64_t>(records.size()));
  std::vector<LogRecord> out;
  for (int64_t offset = std::max<int64_t>(from, 0); offset < end; ++offset) {
    out.push_back(records[static_cast<size_t>(offset)]);
    DURASIM_CHECK_EQ(out.back().offset, offset);
  }
  return out;
}

const LogRecord* KafkaLog::Find(int32_t partition, int64_t offset) const {
  if (partition < 0 || partition >= partitions()) return nullptr;
  const std::vector<LogRecord>& records = partitions_[static_cast<size_t>(partition)];
  if (offset < 0 || offset >= static_cast<int64_t>(records.size())) return nullptr;
  return &records[static_cast<size_t>(offset)];
}

bool KafkaLog::Corrupt(int32_t partition, int64_t offset) {
  if (Find(partition, offset) == nullptr) return false;
  LogRecord& record = partitions_[static_cast<size_t>(partition)][static_cast<size_t>(offset)];
  // Only the value is garbage: the record keeps its place in the log.
  DURASIM_CHECK(record.partition == partition && record.offset == offset);
  record.value = kCorruptValue;
  return true;
}

void ApplyCorruption(const CorruptedPositions& corrupted, std::vector<LogRecord>& records) {
  for (LogRecord& record : records) {
    if (corrupted.count({record.partition, record.offset}) != 0) record.value = kCorruptValue;
  }
}

size_t KafkaLog::total_records() const {
  size_t total = 0;
  for (const auto& records : partitions_) total += records.size();
  return total;
}

}  // namespace durasim
