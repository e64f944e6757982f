// RdKafkaReader implementation over librdkafka's C API.
#include "store/rdkafka_reader.h"

#include <unistd.h>

#include <atomic>
#include <optional>
#include <utility>

#include "store/check.h"
#include "store/format.h"
#include "store/rdkafka_support.h"

namespace durasim {
namespace {

using rdkafka::Clock;

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

// The reads of `ranges`, each checked: a partition of the topic (which has
// `partitions`), read once, over a range [from, to) with 0 <= from <= to.
// `open` gets the indices of those with records to read, in order.
Result<std::vector<RangeRead>> StartReads(const RdKafkaConfig& config, int32_t partitions,
                                          const std::vector<ReadRange>& ranges, std::vector<size_t>& open) {
  std::vector<RangeRead> reads(ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ReadRange& range = ranges[i];
    if (range.partition < 0 || range.partition >= partitions) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("partition {} of topic '{}' does not exist ({} partitions)", range.partition,
                                config.topic, partitions));
    }
    const std::string where = rdkafka::Where(config, range.partition);
    if (range.from < 0 || range.from > range.to) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("bad read range [{}, {}) of {}", range.from, range.to, where));
    }
    for (size_t j = 0; j < i; ++j) {
      if (ranges[j].partition == range.partition) {
        return Status(StatusCode::kInvalidArgument, fmt::format("two read ranges of {}", where));
      }
    }
    RangeRead& read = reads[i];
    read.partition = range.partition;
    read.to = range.to;
    read.range = fmt::format("read of [{}, {}) of {}", range.from, range.to, where);
    read.next = range.from;
    read.done = range.from == range.to;
    if (!read.done) open.push_back(i);
  }
  return reads;
}

// Assigns the partition of every open read at the offset it wants next.
// Absolute offsets: no committed-offset lookup, no reset policy involved.
rd_kafka_resp_err_t AssignAll(rd_kafka_t* rk, const std::string& topic, const std::vector<RangeRead>& reads,
                              const std::vector<size_t>& open) {
  rdkafka::PartitionList assignment(rd_kafka_topic_partition_list_new(static_cast<int>(open.size())));
  for (size_t i : open) {
    rd_kafka_topic_partition_list_add(assignment.get(), topic.c_str(), reads[i].partition)->offset = reads[i].next;
  }
  DURASIM_CHECK_EQ(static_cast<size_t>(assignment->cnt), open.size());  // one entry per open read
  return rd_kafka_assign(rk, assignment.get());
}

// The read a polled message goes to: that of its partition (nothing more is
// wanted of a finished one); anything else, such as an error of no
// partition, to the first open read, which ignores what is not its own and
// fails on an error.
size_t ReadOfMessage(const rd_kafka_message_t& message, const std::vector<RangeRead>& reads,
                     const std::vector<size_t>& open) {
  size_t to = open.front();
  if (message.rkt != nullptr) {
    for (size_t i = 0; i < reads.size(); ++i) {
      if (reads[i].partition == message.partition) to = i;
    }
  }
  return to;
}

// Polls until every open read is done (then nothing), one fails, or the
// deadline passes without a record (then the failure): a bound on no
// progress, so that reading many ranges at once takes no shorter deadline
// per range than reading each alone. Erases each read from `open` as it
// finishes.
std::optional<Status> PollReads(rd_kafka_t* rk, RdKafkaConsumer& consumer, const RdKafkaConfig& config,
                                std::vector<RangeRead>& reads, std::vector<size_t>& open) {
  Clock::time_point deadline = Clock::now() + config.deadline;
  std::optional<Status> failure;
  while (!open.empty() && !failure.has_value()) {
    RangeRead& first = reads[open.front()];
    if (rdkafka::RemainingMs(deadline) == 0) {
      failure = Status(StatusCode::kUnavailable,
                       fmt::format("{}: stopped at offset {} after {} ms without a record{}", first.range, first.next,
                                   config.deadline.count(),
                                   first.last_error.empty() ? consumer.LastError()
                                                            : rdkafka::LastErrorSuffix(first.last_error)));
      break;
    }
    rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, rdkafka::SliceMs(deadline));
    if (message == nullptr) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> guard(message, &rd_kafka_message_destroy);
    const size_t to = ReadOfMessage(*message, reads, open);
    DURASIM_CHECK_LT(to, reads.size());
    RangeRead& read = reads[to];
    if (read.done) continue;
    const int64_t before = read.next;
    read.Take(*message);
    if (read.next != before || read.done) deadline = Clock::now() + config.deadline;  // progress
    if (read.failure.has_value()) {
      failure = read.failure;
    } else if (read.done) {
      std::erase(open, to);
    }
  }
  return failure;
}

}  // namespace

Result<std::shared_ptr<RdKafkaConsumer>> RdKafkaReader::Consumer() {
  if (consumer_) return consumer_;
  rdkafka::Conf conf(rd_kafka_conf_new());
  Status set = rdkafka::SetAll(conf.get(), {
                                               {"bootstrap.servers", config_.bootstrap_servers},
                                               // The topic identity's group (rdkafka_topic_identity.h),
                                               // whose offset it reads and commits on this handle; Read
                                               // never joins the group or commits.
                                               {"group.id", kTopicIdentityGroup},
                                               {"enable.auto.commit", "false"},
                                               {"enable.auto.offset.store", "false"},
                                               {"enable.partition.eof", "true"},
                                               // Never jump: an offset outside the log is an error.
                                               {"auto.offset.reset", "error"},
                                               {"fetch.wait.max.ms", std::to_string(config_.fetch_wait_max.count())},
                                               {"reconnect.backoff.ms", std::to_string(config_.reconnect_backoff.count())},
                                               {"reconnect.backoff.max.ms", std::to_string(config_.reconnect_backoff_max.count())},
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
  Result<std::vector<std::vector<LogRecord>>> read = ReadRanges({ReadRange{partition, from, to}});
  if (!read.ok()) return read.status();
  return std::move(read->front());
}

Result<std::vector<std::vector<LogRecord>>> RdKafkaReader::ReadRanges(const std::vector<ReadRange>& ranges) {
  std::vector<size_t> open;  // the reads not done yet, by index
  Result<std::vector<RangeRead>> started = StartReads(config_, partitions_, ranges, open);
  if (!started.ok()) return started.status();
  std::vector<RangeRead>& reads = *started;
  std::vector<std::vector<LogRecord>> out(ranges.size());
  if (open.empty()) return out;
  Result<std::shared_ptr<RdKafkaConsumer>> consumer = Consumer();
  if (!consumer.ok()) return consumer.status();
  rd_kafka_t* rk = (*consumer)->rk;

  // Every partition at once: one fetch serves them all, and none waits out
  // the fetch held for another.
  rd_kafka_resp_err_t err = AssignAll(rk, config_.topic, reads, open);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kUnavailable,
                  fmt::format("{}: assign failed: {}", reads[open.front()].range, rdkafka::ErrorText(err)));
  }
  const std::optional<Status> failure = PollReads(rk, **consumer, config_, reads, open);
  // Stop fetching until the next read; a failed reader is replaced so that
  // nothing of this read can leak into the next one.
  (void)rd_kafka_assign(rk, nullptr);
  if (failure.has_value()) {
    consumer_.reset();
    return *failure;
  }
  for (size_t i = 0; i < reads.size(); ++i) {
    DURASIM_CHECK(reads[i].done);  // every range was read to its end
    out[i] = std::move(reads[i].records);
  }
  return out;
}

}  // namespace durasim
