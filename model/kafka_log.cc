// KafkaLog implementation.
#include "model/kafka_log.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/check.h"

namespace durasim {

KafkaLog::KafkaLog(int32_t partitions) : partitions_(static_cast<size_t>(partitions)) {
  DURASIM_CHECK_GE(partitions, 1);
}

TopicIdentity KafkaLog::topic() const {
  return TopicIdentity{std::string(kModelTopicName), fmt::format("model-{}", incarnation_)};
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

RecordPosition KafkaLog::Append(int32_t partition, std::string key, std::string value) {
  Partition& log = At(partition);
  const int64_t offset = log.end();
  // Offsets are dense and increasing from the log start.
  if (!log.records.empty()) DURASIM_CHECK_EQ(log.records.back().offset + 1, offset);
  log.records.push_back(LogRecord{partition, offset, std::move(key), std::move(value)});
  if (on_append_) on_append_(log.records.back());
  return RecordPosition{partition, offset};
}

PartitionOffsets KafkaLog::Offsets(int32_t partition) const {
  const Partition& log = At(partition);
  return PartitionOffsets{log.start, log.end()};
}

std::vector<LogRecord> KafkaLog::Read(int32_t partition, int64_t from, int64_t to) const {
  const Partition& log = At(partition);
  const int64_t end = std::min<int64_t>(to, log.end());
  std::vector<LogRecord> out;
  for (int64_t offset = std::max<int64_t>(from, log.start); offset < end; ++offset) {
    out.push_back(log.records[static_cast<size_t>(offset - log.start)]);
    DURASIM_CHECK_EQ(out.back().offset, offset);
  }
  return out;
}

const LogRecord* KafkaLog::Find(int32_t partition, int64_t offset) const {
  if (partition < 0 || partition >= partitions()) return nullptr;
  const Partition& log = At(partition);
  if (offset < log.start || offset >= log.end()) return nullptr;
  return &log.records[static_cast<size_t>(offset - log.start)];
}

bool KafkaLog::Corrupt(int32_t partition, int64_t offset) {
  if (Find(partition, offset) == nullptr) return false;
  Partition& log = At(partition);
  LogRecord& record = log.records[static_cast<size_t>(offset - log.start)];
  // Only the value is garbage: the record keeps its place in the log.
  DURASIM_CHECK(record.partition == partition && record.offset == offset);
  record.value = kCorruptValue;
  return true;
}

int64_t KafkaLog::DeleteRecords(int32_t partition, int64_t before_offset) {
  Partition& log = At(partition);
  const int64_t before = std::min(before_offset, log.end());
  if (before <= log.start) return log.start;
  log.records.erase(log.records.begin(), log.records.begin() + static_cast<std::ptrdiff_t>(before - log.start));
  log.start = before;
  return log.start;
}

Status CheckNotDeleted(int64_t start, int32_t partition, int64_t from) {
  if (from >= start) return Status::Ok();
  return Status(StatusCode::kInvalidRecovery,
                fmt::format("read of partition {} from offset {}: below the log start {}, the records were deleted",
                            partition, from, start));
}

void KafkaLog::Recreate() {
  partitions_ = std::vector<Partition>(partitions_.size());
  ++incarnation_;
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
