// KafkaLogSink implementation.
#include "model/memory_log_client.h"

namespace durasim {

Result<std::vector<PartitionOffsets>> KafkaLogSink::Offsets() {
  std::vector<PartitionOffsets> out;
  out.reserve(static_cast<size_t>(partitions_));
  for (int32_t p = 0; p < partitions_; ++p) out.push_back(log_.Offsets(p));
  return out;
}

Result<std::vector<LogRecord>> KafkaLogSink::Read(int32_t partition, int64_t from, int64_t to) {
  if (Status deleted = CheckNotDeleted(log_.Offsets(partition).start, partition, from); !deleted.ok()) return deleted;
  return log_.Read(partition, from, to);
}

}  // namespace durasim
