// RecordSink: the broker side of a SimulatedLogClient. A sent record is
// appended at once and reads are served at once; the simulated client adds
// the producer's timing (linger, acknowledgement latency, outages) around
// it. The sink is the in-memory KafkaLog (the model) or a real LogClient
// (librdkafka's mock cluster, a real broker).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/status.h"
#include "store/log_client.h"

namespace durasim {

class RecordSink {
 public:
  virtual ~RecordSink() = default;

  virtual int32_t partitions() const = 0;
  // Appends one record now and returns where it went. Errors (real brokers
  // only): kNotPersisted, kPossiblyPersisted, naming the broker.
  virtual Result<RecordPosition> Append(int32_t partition, std::string key, std::string value) = 0;
  virtual Result<std::vector<PartitionOffsets>> Offsets() = 0;
  virtual Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) = 0;
  virtual Result<TopicIdentity> Topic() = 0;
  // LogClient::WillRead: reads of these ranges come next. The model's log
  // serves reads at once and ignores it; a real log may read ahead.
  virtual void WillRead(const std::vector<ReadRange>& ranges) { (void)ranges; }
};

}  // namespace durasim
