// KafkaLogSink implementation.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#include "model/memory_log_client.h"

namespace durasim {

Result<std::vector<PartitionOffsets>> KafkaLogSink::Offsets() {
  std::vector<PartitionOffsets> out;
  for (int32_t p = 0; p < log_.partitions(); ++p) out.push_back(log_.Offsets(p));
  return out;
}

Result<std::vector<LogRecord>> KafkaLogSink::Read(int32_t partition, int64_t from, int64_t to) {
  return log_.Read(partition, from, to);
}

}  // namespace durasim
