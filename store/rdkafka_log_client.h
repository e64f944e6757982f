// RdKafkaLogClient: the LogClient port over librdkafka (C API, 2.0.2), for a
// real broker or librdkafka's mock cluster. The only file pair of the store
// that includes librdkafka headers (kafka_mock_cluster.* is the other).
//
// Produce queues on an idempotent, acks=all producer with an explicit
// partition; the delivery report fills the ticket's result, mapped through
// rd_kafka_message_status onto kNotPersisted / kPossiblyPersisted. Offsets and
// Read use a separate consumer handle with a private group id and no commits.
// Every blocking call is bounded by `RdKafkaConfig::deadline` of wall-clock
// time. Destroying the client is a crash: queued and in-flight records are
// purged, not flushed.
//
// Thread-safety: none; one thread (one coroutine strand) uses a client.
// librdkafka's own threads never call back into it: delivery reports and
// errors are served from Flush/AwaitAck on the caller's thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "store/log_client.h"

struct rd_kafka_s;          // rd_kafka_t
struct rd_kafka_message_s;  // rd_kafka_message_t

namespace durasim {

struct RdKafkaConfig {
  std::string bootstrap_servers;  // "host:port[,host:port...]"
  std::string topic;
  int32_t expected_partitions = 0;  // 0: take what the topic has
  // Create the topic (compacted, `expected_partitions` partitions, replication
  // factor 1) with the admin API when it is missing.
  // REQUIRES: expected_partitions > 0 when set.
  bool create_topic = false;
  // Bound on every blocking call: connect, Flush, AwaitAck, Offsets, Read.
  std::chrono::milliseconds deadline{10'000};
  // The producer's message.timeout.ms; zero means `deadline`.
  std::chrono::milliseconds message_timeout{0};
  // The consumer's fetch.wait.max.ms: how long an empty fetch is held, which
  // is what reaching the end of a partition costs.
  std::chrono::milliseconds fetch_wait_max{20};
  // The producer's message.send.max.retries; unset keeps librdkafka's
  // default (retry until message.timeout.ms). Idempotence needs it > 0.
  std::optional<int32_t> producer_retries;
};

class RdKafkaLogClient : public LogClient {
 public:
  // Creates the handles and checks the topic (creating it when configured).
  // Errors: kInvalidArgument (bad config, partition-count mismatch),
  // kNotFound (no such topic), kUnavailable (brokers not reachable within the
  // deadline; the message names them).
  static Result<std::unique_ptr<RdKafkaLogClient>> Connect(const RdKafkaConfig& config);

  ~RdKafkaLogClient() override;
  RdKafkaLogClient(const RdKafkaLogClient&) = delete;
  RdKafkaLogClient& operator=(const RdKafkaLogClient&) = delete;

  int32_t partition_count() const override { return partitions_; }
  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  // rd_kafka_flush bounded by the deadline; serves delivery reports.
  void Flush() override;
  // Completes without suspending: polls the producer until the delivery
  // report arrives or the deadline passes (then kPossiblyPersisted). A wait
  // whose cancellation was already requested returns kCancelled.
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;
  // Errors: kUnavailable naming the broker and topic.
  Result<std::vector<PartitionOffsets>> Offsets() override;
  // Errors: kInvalidArgument (bad range or partition), kInvalidRecovery (the
  // range is not in the log: below its start or past its end), kUnavailable.
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;

  const RdKafkaConfig& config() const { return config_; }
  // How many times a fatal producer error made the client recreate its
  // producer.
  int producer_restarts() const { return producer_restarts_; }

 private:
  struct ProducerDeleter {
    void operator()(rd_kafka_s* rk) const;
  };
  using Producer = std::unique_ptr<rd_kafka_s, ProducerDeleter>;
  // The consumer handle of Offsets and Read, with its latest error callback.
  struct ReaderHandle;
  struct Pending {
    int32_t partition = 0;
    std::optional<Result<RecordPosition>> result;
  };

  explicit RdKafkaLogClient(const RdKafkaConfig& config);

  Result<Producer> MakeProducer();
  Result<std::shared_ptr<ReaderHandle>> Reader();
  Status CheckTopic();
  Status CreateTopic(std::chrono::steady_clock::time_point deadline);
  // Recreates the producer after a fatal error; unresolved tickets fail as
  // possibly persisted. Returns whether it did.
  bool RecoverFromFatalError();
  void Deliver(rd_kafka_s* rk, const rd_kafka_message_s& message);
  std::string Where(int32_t partition) const;

  static void OnDelivery(rd_kafka_s* rk, const rd_kafka_message_s* message, void* opaque);
  static void OnError(rd_kafka_s* rk, int err, const char* reason, void* opaque);

  RdKafkaConfig config_;
  int32_t partitions_ = 0;
  Producer producer_;
  std::shared_ptr<ReaderHandle> reader_;  // shared with an abandoned Offsets query
  std::map<ProduceTicket, Pending> pending_;
  ProduceTicket next_ticket_ = 1;
  std::string last_error_;  // the producer's latest error callback, for messages
  int producer_restarts_ = 0;
};

}  // namespace durasim
