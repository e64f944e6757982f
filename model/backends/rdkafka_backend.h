// RdKafkaBackend: the log of a run on librdkafka's embedded mock cluster
// (in process, its own handle, so the data outlives every client) or on a
// real broker (a fresh compacted topic per run). Each incarnation connects a
// new RdKafkaLogClient; a crash destroys it without flushing.
#pragma once

#include <memory>
#include <string>

#include "store/kafka_mock_cluster.h"
#include "model/backends/backend_kind.h"
#include "model/backends/log_backend.h"
#include "store/rdkafka_log_client.h"

namespace durasim {

class RdKafkaBackend : public LogBackend {
 public:
  // A mock cluster with one broker and a topic of `partitions` partitions.
  static Result<std::unique_ptr<RdKafkaBackend>> StartMock(int32_t partitions);
  // A fresh topic of `partitions` partitions on the broker at `bootstrap_servers`.
  static Result<std::unique_ptr<RdKafkaBackend>> OnBroker(const std::string& bootstrap_servers, int32_t partitions);

  std::string name() const override { return NameOf(mock_ ? BackendKind::kMock : BackendKind::kKafka); }
  Result<std::unique_ptr<LogClient>> Connect(Scheduler& scheduler) override;
  bool reports_appends() const override { return false; }
  Result<std::vector<std::vector<LogRecord>>> ReadAll() override;
  // On the mock cluster, its only broker; a real broker stays up.
  Status TakeBrokerDown() override;
  Status EnsureBrokerUp() override;
  bool has_write_fault_controls() const override { return mock_ != nullptr; }
  // INVALID_RECORD, which librdkafka does not retry.
  Status RefuseNextProduce() override;
  // The producer's message timeout is 500 ms and the mock answers its
  // Produce request 5 s late; librdkafka reports the timeout within about
  // a second (its timeout scan), after which the producer is destroyed.
  Result<RecordPosition> AppendLosingAck(int32_t partition, std::string key, std::string value) override;

  const RdKafkaConfig& config() const { return config_; }

 private:
  RdKafkaBackend() = default;

  std::unique_ptr<KafkaMockCluster> mock_;
  RdKafkaConfig config_;
  bool broker_down_ = false;
};

}  // namespace durasim
