// MemoryLogClient: the model's producer and reader: a SimulatedLogClient
// over the in-memory KafkaLog, whose outage window it also obeys.
#pragma once

#include <memory>

#include "model/kafka_log.h"
#include "model/backends/record_sink.h"
#include "model/simulated_log_client.h"

namespace durasim {

// The in-memory log as a RecordSink: appends always succeed (the simulated
// client never sends while the broker is down).
class KafkaLogSink : public RecordSink {
 public:
  // REQUIRES: `log` outlives the sink.
  // The sink knows the partitions the topic had when it was made, as a
  // client knows those of its first metadata: partitions added later reach
  // the next incarnation's clients (as on librdkafka: RdKafkaLogClient).
  explicit KafkaLogSink(KafkaLog& log) : log_(log), partitions_(log.partitions()) {}

  int32_t partitions() const override { return partitions_; }
  Result<RecordPosition> Append(int32_t partition, std::string key, std::string value) override {
    return log_.Append(partition, std::move(key), std::move(value));
  }
  Result<std::vector<PartitionOffsets>> Offsets() override;
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;
  Result<TopicIdentity> Topic() override { return log_.topic(); }

 private:
  KafkaLog& log_;
  int32_t partitions_;
};

class MemoryLogClient : public SimulatedLogClient {
 public:
  // REQUIRES: `scheduler` and `log` outlive the client.
  MemoryLogClient(Scheduler& scheduler, KafkaLog& log, const LogConfig& config)
      : SimulatedLogClient(scheduler, log, config, std::make_unique<KafkaLogSink>(log)) {}
};

}  // namespace durasim
