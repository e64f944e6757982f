// RdKafkaLogClient: the LogClient port over librdkafka (C API, 2.0.2), for a
// real broker or librdkafka's mock cluster. A facade over three rooms, the
// only files of the store that include librdkafka headers with
// kafka_mock_cluster.*:
//
//   rdkafka_producer.h     Produce, Flush, AwaitAck: an idempotent, acks=all
//                          producer; delivery reports map onto kNotPersisted /
//                          kPossiblyPersisted
//   rdkafka_reader.h       Read: a consumer that never joins its group (the
//                          topic identity's) or commits on a read
//   rdkafka_topic_admin.h  the topic check (and creation) on Connect, Offsets
//
// Every blocking call is bounded by `RdKafkaConfig::deadline` of wall-clock
// time. Destroying the client is a crash: queued and in-flight records are
// purged, not flushed.
//
// Thread-safety: none; one thread (one coroutine strand) uses a client.
// librdkafka's own threads never call back into it: delivery reports and
// errors are served from Flush/AwaitAck on the caller's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/log_client.h"
#include "store/rdkafka_config.h"
#include "store/rdkafka_producer.h"
#include "store/rdkafka_reader.h"
#include "store/rdkafka_topic_identity.h"
#include "store/read_ahead.h"

namespace durasim {

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
  // Gives up on the acknowledgement of every record produced and not
  // acknowledged yet (RdKafkaProducer::AbandonUnacknowledged): AwaitAck
  // then reports one in flight possibly persisted, one not sent yet not
  // persisted.
  void AbandonUnacknowledged() { producer_.AbandonUnacknowledged(); }
  // Errors: kUnavailable naming the broker and topic.
  Result<std::vector<PartitionOffsets>> Offsets() override;
  // Errors: kInvalidArgument (bad range or partition), kInvalidRecovery (the
  // range is not in the log: below its start or past its end), kUnavailable.
  // A range of the last WillRead is answered from what it read, once.
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;
  // Reads every range at once (ReadRanges) and holds the answer for the
  // reads that follow (read_ahead.h): one consumer assignment for all
  // partitions, so no partition waits out the fetch the broker holds for
  // another (up to fetch.wait.max.ms each, docs/benchmarks.md).
  void WillRead(const std::vector<ReadRange>& ranges) override;
  // Every range at once (RdKafkaReader::ReadRanges): one entry per range.
  // Errors as Read's.
  Result<std::vector<std::vector<LogRecord>>> ReadRanges(const std::vector<ReadRange>& ranges);
  // The topic's name and incarnation, asked of the group coordinator each
  // time (rdkafka_topic_identity.h), so a topic re-created while the client
  // is connected is seen. Errors: kUnavailable.
  Result<TopicIdentity> Topic() override;

  const RdKafkaConfig& config() const { return config_; }
  // The admin API's CreatePartitions: the topic grows to `partitions`. This
  // client keeps the partitions it connected with; the next client sees
  // them all. Errors: kInvalidArgument, kUnavailable.
  Status AddPartitions(int32_t partitions);
  // The admin API's DeleteRecords: the records of `partition` below
  // `before_offset` leave the log. REQUIRES: before_offset within the
  // partition's log. Errors: kInvalidArgument, kUnavailable.
  Status DeleteRecords(int32_t partition, int64_t before_offset);
  // The admin API's DeleteTopics for the client's topic, waiting until the
  // broker no longer lists it. The client is of no use afterwards.
  // Errors: kUnavailable.
  Status DeleteTopic();
  // How many times a fatal producer error made the client recreate its
  // producer.
  int producer_restarts() const { return producer_.restarts(); }

 private:
  explicit RdKafkaLogClient(const RdKafkaConfig& config);

  RdKafkaConfig config_;  // before the rooms, which refer to it
  int32_t partitions_ = 0;
  // Destroyed in reverse order: the producer (a crash: purged, not flushed)
  // before the reader.
  RdKafkaReader reader_;
  ReadAhead read_ahead_;  // of the last WillRead; cleared when the log changes
  RdKafkaTopicIdentity identity_;  // asks on the reader's consumer
  RdKafkaProducer producer_;
};

}  // namespace durasim
