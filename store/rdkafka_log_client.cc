// RdKafkaLogClient implementation: checks the configuration, connects the
// rooms and forwards to them.
#include "store/rdkafka_log_client.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "store/format.h"
#include "store/rdkafka_support.h"
#include "store/rdkafka_topic_admin.h"
#include "store/rdkafka_topic_identity.h"

namespace durasim {
namespace {

RdKafkaConfig WithDefaults(RdKafkaConfig config) {
  if (config.message_timeout.count() == 0) config.message_timeout = config.deadline;
  return config;
}

Status CheckConfig(const RdKafkaConfig& config) {
  if (config.bootstrap_servers.empty()) return Status(StatusCode::kInvalidArgument, "no bootstrap servers");
  if (config.topic.empty()) return Status(StatusCode::kInvalidArgument, "no topic");
  if (config.deadline.count() <= 0) return Status(StatusCode::kInvalidArgument, "the deadline must be positive");
  if (config.expected_partitions < 0) {
    return Status(StatusCode::kInvalidArgument, "expected_partitions must be >= 0");
  }
  if (config.create_topic && config.expected_partitions == 0) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("create_topic for '{}' needs expected_partitions > 0", config.topic));
  }
  return Status::Ok();
}

// A failure seen after an interrupt was requested is the interrupt's (every
// wait ends as at its deadline then): kCancelled, "interrupted by a signal".
template <typename T>
Result<T> Interruptible(Result<T> result) {
  if (result.ok()) return result;
  return rdkafka::AsInterrupted(result.status());
}

}  // namespace

RdKafkaLogClient::RdKafkaLogClient(const RdKafkaConfig& config)
    : config_(WithDefaults(config)), reader_(config_), identity_(config_, reader_), producer_(config_) {}

// The producer goes first (members are destroyed in reverse order), then the reader.
RdKafkaLogClient::~RdKafkaLogClient() = default;

Result<std::unique_ptr<RdKafkaLogClient>> RdKafkaLogClient::Connect(const RdKafkaConfig& config) {
  if (Status valid = CheckConfig(config); !valid.ok()) return valid;
  std::unique_ptr<RdKafkaLogClient> client(new RdKafkaLogClient(config));
  // The producer is made at the first write (RdKafkaProducer::Start).
  Result<int32_t> partitions = CheckTopic(client->reader_, client->config_);
  if (!partitions.ok()) return rdkafka::AsInterrupted(partitions.status());
  client->partitions_ =
      config.partitions_visible > 0 ? std::min(*partitions, config.partitions_visible) : *partitions;
  client->producer_.set_partition_count(client->partitions_);
  client->reader_.set_partition_count(client->partitions_);
  return client;
}

ProduceTicket RdKafkaLogClient::Produce(int32_t partition, std::string key, std::string value) {
  read_ahead_.Clear();  // a rebuild is over once the store writes: nothing held outlives it
  return producer_.Produce(partition, std::move(key), std::move(value));
}

void RdKafkaLogClient::Flush() { producer_.Flush(); }

boost::asio::awaitable<Result<RecordPosition>> RdKafkaLogClient::AwaitAck(ProduceTicket ticket) {
  co_return Interruptible(co_await producer_.AwaitAck(ticket));
}

Result<std::vector<PartitionOffsets>> RdKafkaLogClient::Offsets() {
  read_ahead_.Clear();  // a new rebuild starts here (or the caller looks afresh)
  return Interruptible(QueryOffsets(reader_, config_, partitions_));
}

Result<std::vector<LogRecord>> RdKafkaLogClient::Read(int32_t partition, int64_t from, int64_t to) {
  if (std::optional<Result<std::vector<LogRecord>>> held = read_ahead_.Take(partition, from, to)) {
    return Interruptible(std::move(*held));
  }
  return Interruptible(reader_.Read(partition, from, to));
}

void RdKafkaLogClient::WillRead(const std::vector<ReadRange>& ranges) {
  read_ahead_.Hold(ranges, reader_.ReadRanges(ranges));
}

Result<std::vector<std::vector<LogRecord>>> RdKafkaLogClient::ReadRanges(const std::vector<ReadRange>& ranges) {
  return Interruptible(reader_.ReadRanges(ranges));
}

Status RdKafkaLogClient::AddPartitions(int32_t partitions) {
  if (partitions <= partitions_) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}' has {} partitions: cannot grow to {}",
                                                            config_.topic, partitions_, partitions));
  }
  read_ahead_.Clear();
  return rdkafka::AsInterrupted(CreatePartitions(producer_, config_, partitions));
}

Status RdKafkaLogClient::DeleteRecords(int32_t partition, int64_t before_offset) {
  if (partition < 0 || partition >= partitions_) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}' has no partition {}", config_.topic, partition));
  }
  read_ahead_.Clear();
  return rdkafka::AsInterrupted(DeleteRecordsBefore(producer_, config_, partition, before_offset));
}

Status RdKafkaLogClient::DeleteTopic() {
  read_ahead_.Clear();
  return rdkafka::AsInterrupted(DeleteTopicAndWait(producer_, config_));
}

Result<TopicIdentity> RdKafkaLogClient::Topic() {
  Result<std::string> incarnation = identity_.Incarnation();
  if (!incarnation.ok()) return rdkafka::AsInterrupted(incarnation.status());
  return TopicIdentity{config_.topic, *incarnation};
}

}  // namespace durasim
