// RdKafkaReader implementation over librdkafka's C API.
#include "store/rdkafka_reader.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <optional>
#include <utility>

#include "store/rdkafka_support.h"

namespace durasim {
namespace {

using rdkafka::Clock;

// A consumer group id no other client shares: the reader never joins or
// commits, but librdkafka's assign() needs one.
std::string PrivateGroupId() {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("durasim-reader-{}-{}-{}", static_cast<long>(getpid()),
                     Clock::now().time_since_epoch().count(), counter.fetch_add(1));
}

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const { rd_kafka_topic_partition_list_destroy(list); }
};

// One Read in progress: the records so far, and how it ended.
struct RangeRead {
  int32_t partition = 0;
  int64_t to = 0;
  std::string range;  // "read of [from, to) of <where>", for messages
  std::vector<LogRecord> records;
  int64_t next = 0;  // the next offset wanted
  std::optional<Status> failure;
  std::string last_error;  // of a transport error librdkafka retries
  bool done = false;

  void Take(const rd_kafka_message_t& message);
  void TakeRecord(const rd_kafka_message_t& message, bool ours);
};

void RangeRead::Take(const rd_kafka_message_t& message) {
  const bool ours = message.rkt != nullptr && message.partition == partition;
  switch (message.err) {
    case RD_KAFKA_RESP_ERR_NO_ERROR: TakeRecord(message, ours); break;
    case RD_KAFKA_RESP_ERR__PARTITION_EOF:
      if (!ours) break;
      if (message.offset >= to) {
        done = true;
      } else {
        failure = Status(StatusCode::kInvalidRecovery,
                         fmt::format("{}: the log ends at offset {}, before the end of the range", range,
                                     message.offset));
      }
      break;
    case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
    case RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE:
      failure = Status(StatusCode::kInvalidRecovery,
                       fmt::format("{}: offset {} is outside the log (records below the log start were deleted, "
                                   "or the range is past its end): {}",
                                   range, next, rd_kafka_message_errstr(&message)));
      break;
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
      failure = Status(StatusCode::kUnavailable, fmt::format("{}: {}: {}", range, rd_kafka_err2name(message.err),
                                                             rd_kafka_message_errstr(&message)));
      break;
    default:
      // Transport errors and the like: librdkafka retries; keep the
      // reason for the timeout message.
      last_error = fmt::format("{}: {}", rd_kafka_err2name(message.err), rd_kafka_message_errstr(&message));
      break;
  }
}

void RangeRead::TakeRecord(const rd_kafka_message_t& message, bool ours) {
  if (!ours || message.offset < next) return;  // not ours, or seen
  if (message.offset >= to) {
    done = true;  // a gap (compaction, markers) right before `to`
    return;
  }
  records.push_back(LogRecord{partition, message.offset,
                              std::string(static_cast<const char*>(message.key), message.key_len),
                              std::string(static_cast<const char*>(message.payload), message.len)});
  next = message.offset + 1;
  done = next >= to;
}

}  // namespace

Result<std::shared_ptr<RdKafkaConsumer>> RdKafkaReader::Consumer() {
  if (consumer_) return consumer_;
  rdkafka::Conf conf(rd_kafka_conf_new());
  Status set = rdkafka::SetAll(conf.get(), {
                                               {"bootstrap.servers", config_.bootstrap_servers},
                                               {"group.id", PrivateGroupId()},
                                               {"enable.auto.commit", "false"},
                                               {"enable.auto.offset.store", "false"},
                                               {"enable.partition.eof", "true"},
                                               // Never jump: an offset outside the log is an error.
                                               {"auto.offset.reset", "error"},
                                               {"fetch.wait.max.ms", std::to_string(config_.fetch_wait_max.count())},
                                               {"reconnect.backoff.ms", "10"},
                                               {"reconnect.backoff.max.ms", "100"},
                                           });
  if (!set.ok()) return set;
  auto consumer = std::make_shared<RdKafkaConsumer>();
  rd_kafka_conf_set_opaque(conf.get(), consumer.get());
  rd_kafka_conf_set_error_cb(conf.get(), &RdKafkaConsumer::OnError);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf.get(), errstr, sizeof(errstr));
  if (rk == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("cannot create a consumer for {}: {}",
                                                            config_.bootstrap_servers, errstr));
  }
  conf.release();
  // Errors and the consumer's events all come through rd_kafka_consumer_poll.
  rd_kafka_poll_set_consumer(rk);
  consumer->rk = rk;
  consumer_ = std::move(consumer);
  return consumer_;
}

Result<std::vector<LogRecord>> RdKafkaReader::Read(int32_t partition, int64_t from, int64_t to) {
  if (partition < 0 || partition >= partitions_) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partition {} of topic '{}' does not exist ({} partitions)",
                                                            partition, config_.topic, partitions_));
  }
  const std::string where = rdkafka::Where(config_, partition);
  if (from < 0 || from > to) {
    return Status(StatusCode::kInvalidArgument, fmt::format("bad read range [{}, {}) of {}", from, to, where));
  }
  if (from == to) return std::vector<LogRecord>{};
  Result<std::shared_ptr<RdKafkaConsumer>> consumer = Consumer();
  if (!consumer.ok()) return consumer.status();
  rd_kafka_t* rk = (*consumer)->rk;
  RangeRead read;
  read.partition = partition;
  read.to = to;
  read.range = fmt::format("read of [{}, {}) of {}", from, to, where);
  read.next = from;

  std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter> assignment(
      rd_kafka_topic_partition_list_new(1));
  // An absolute offset: no committed-offset lookup, no reset policy involved.
  rd_kafka_topic_partition_list_add(assignment.get(), config_.topic.c_str(), partition)->offset = from;
  rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment.get());
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kUnavailable,
                  fmt::format("{}: assign failed: {}", read.range, rdkafka::ErrorText(err)));
  }
  const Clock::time_point deadline = Clock::now() + config_.deadline;
  while (!read.done && !read.failure.has_value()) {
    if (rdkafka::RemainingMs(deadline) == 0) {
      read.failure = Status(StatusCode::kUnavailable,
                            fmt::format("{}: stopped at offset {} after {} ms{}", read.range, read.next,
                                        config_.deadline.count(),
                                        read.last_error.empty() ? (*consumer)->LastError()
                                                                : rdkafka::LastErrorSuffix(read.last_error)));
      break;
    }
    rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, rdkafka::SliceMs(deadline));
    if (message == nullptr) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> guard(message, &rd_kafka_message_destroy);
    read.Take(*message);
  }
  // Stop fetching until the next read; a failed reader is replaced so that
  // nothing of this read can leak into the next one.
  (void)rd_kafka_assign(rk, nullptr);
  if (read.failure.has_value()) {
    consumer_.reset();
    return *read.failure;
  }
  return std::move(read.records);
}

}  // namespace durasim
