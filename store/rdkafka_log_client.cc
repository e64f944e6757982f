// RdKafkaLogClient implementation over librdkafka's C API.
#include "store/rdkafka_log_client.h"

#include <fmt/format.h>
#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/this_coro.hpp>
#include <future>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace durasim {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Poll slice while waiting for a delivery report or a record: short enough to
// notice the deadline and a fatal error promptly.
constexpr milliseconds kPollSlice{10};
// Extra wait for a watermark query past the deadline, so that librdkafka's
// own timeout (set to the deadline) reports first, with its reason.
constexpr milliseconds kQueryGrace{250};

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::max<int64_t>(0, left));
}

int SliceMs(Clock::time_point deadline) {
  return std::min(RemainingMs(deadline), static_cast<int>(kPollSlice.count()));
}

std::string ErrorText(rd_kafka_resp_err_t err) {
  return fmt::format("{} ({})", rd_kafka_err2str(err), rd_kafka_err2name(err));
}

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
using Conf = std::unique_ptr<rd_kafka_conf_t, ConfDeleter>;

Status SetAll(rd_kafka_conf_t* conf, const std::vector<std::pair<std::string, std::string>>& properties) {
  char errstr[512];
  for (const auto& [name, value] : properties) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
      return Status(StatusCode::kInvalidArgument, fmt::format("librdkafka property {}={}: {}", name, value, errstr));
    }
  }
  return Status::Ok();
}

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

}  // namespace

struct RdKafkaLogClient::ReaderHandle {
  ~ReaderHandle() {
    if (rk == nullptr) return;
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
  }
  std::string LastError() {
    std::lock_guard<std::mutex> lock(mu);
    return last_error.empty() ? "" : fmt::format(" (last error: {})", last_error);
  }
  static void OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
    auto* self = static_cast<ReaderHandle*>(opaque);
    std::lock_guard<std::mutex> lock(self->mu);
    self->last_error = fmt::format("{}: {}", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), reason);
  }

  rd_kafka_t* rk = nullptr;
  std::mutex mu;  // an abandoned Offsets query may still use the handle
  std::string last_error;
};

void RdKafkaLogClient::ProducerDeleter::operator()(rd_kafka_t* rk) const {
  // A crash: whatever is queued or in flight is dropped, not delivered.
  rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_destroy(rk);
}

RdKafkaLogClient::RdKafkaLogClient(const RdKafkaConfig& config) : config_(config) {
  if (config_.message_timeout.count() == 0) config_.message_timeout = config_.deadline;
}

RdKafkaLogClient::~RdKafkaLogClient() {
  producer_.reset();
  reader_.reset();
}

Result<std::unique_ptr<RdKafkaLogClient>> RdKafkaLogClient::Connect(const RdKafkaConfig& config) {
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
  std::unique_ptr<RdKafkaLogClient> client(new RdKafkaLogClient(config));
  Result<Producer> producer = client->MakeProducer();
  if (!producer.ok()) return producer.status();
  client->producer_ = std::move(*producer);
  Status topic = client->CheckTopic();
  if (!topic.ok()) return topic;
  return client;
}

Result<RdKafkaLogClient::Producer> RdKafkaLogClient::MakeProducer() {
  Conf conf(rd_kafka_conf_new());
  std::vector<std::pair<std::string, std::string>> properties = {
      {"bootstrap.servers", config_.bootstrap_servers},
      {"acks", "all"},
      {"enable.idempotence", "true"},
      // linger.ms stays at its default (5 ms): the store flushes before it
      // awaits an acknowledgement.
      {"message.timeout.ms", std::to_string(config_.message_timeout.count())},
      // Reconnect fast after a broker comes back (the default backoff of up
      // to 10 s outlives a short outage).
      {"reconnect.backoff.ms", "10"},
      {"reconnect.backoff.max.ms", "100"},
  };
  if (config_.producer_retries.has_value()) {
    properties.emplace_back("message.send.max.retries", std::to_string(*config_.producer_retries));
  }
  Status set = SetAll(conf.get(), properties);
  if (!set.ok()) return set;
  rd_kafka_conf_set_opaque(conf.get(), this);
  rd_kafka_conf_set_dr_msg_cb(conf.get(), &RdKafkaLogClient::OnDelivery);
  rd_kafka_conf_set_error_cb(conf.get(), &RdKafkaLogClient::OnError);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof(errstr));
  if (rk == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("cannot create a producer for {}: {}",
                                                            config_.bootstrap_servers, errstr));
  }
  conf.release();  // rd_kafka_new owns it now
  return Producer(rk);
}

Result<std::shared_ptr<RdKafkaLogClient::ReaderHandle>> RdKafkaLogClient::Reader() {
  if (reader_) return reader_;
  Conf conf(rd_kafka_conf_new());
  Status set = SetAll(conf.get(), {
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
  auto reader = std::make_shared<ReaderHandle>();
  rd_kafka_conf_set_opaque(conf.get(), reader.get());
  rd_kafka_conf_set_error_cb(conf.get(), &ReaderHandle::OnError);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf.get(), errstr, sizeof(errstr));
  if (rk == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("cannot create a consumer for {}: {}",
                                                            config_.bootstrap_servers, errstr));
  }
  conf.release();
  // Errors and the consumer's events all come through rd_kafka_consumer_poll.
  rd_kafka_poll_set_consumer(rk);
  reader->rk = rk;
  reader_ = std::move(reader);
  return reader_;
}

Status RdKafkaLogClient::CheckTopic() {
  const Clock::time_point deadline = Clock::now() + config_.deadline;
  bool created = false;
  rd_kafka_resp_err_t topic_err = RD_KAFKA_RESP_ERR_NO_ERROR;
  while (true) {
    // All topics, not just ours: a metadata request naming a topic can create
    // it (the mock cluster always does; brokers with auto-create do).
    const rd_kafka_metadata_t* metadata = nullptr;
    rd_kafka_resp_err_t err = rd_kafka_metadata(producer_.get(), 1, nullptr, &metadata, RemainingMs(deadline));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      rd_kafka_poll(producer_.get(), 0);  // serve error callbacks into last_error_
      return Status(StatusCode::kUnavailable,
                    fmt::format("cannot reach Kafka at {} within {} ms: {}{}", config_.bootstrap_servers,
                                config_.deadline.count(), ErrorText(err),
                                last_error_.empty() ? "" : fmt::format(" (last error: {})", last_error_)));
    }
    int32_t partitions = -1;
    topic_err = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (int i = 0; i < metadata->topic_cnt; ++i) {
      const rd_kafka_metadata_topic_t& topic = metadata->topics[i];
      if (config_.topic != topic.topic) continue;
      topic_err = topic.err;
      partitions = topic.partition_cnt;
    }
    rd_kafka_metadata_destroy(metadata);
    if (partitions > 0 && topic_err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (config_.expected_partitions != 0 && partitions != config_.expected_partitions) {
        return Status(StatusCode::kInvalidArgument,
                      fmt::format("topic '{}' at {} has {} partitions, expected {}", config_.topic,
                                  config_.bootstrap_servers, partitions, config_.expected_partitions));
      }
      partitions_ = partitions;
      return Status::Ok();
    }
    if (partitions < 0 && !config_.create_topic) {
      return Status(StatusCode::kNotFound, fmt::format("topic '{}' does not exist at {} (create_topic is off)",
                                                       config_.topic, config_.bootstrap_servers));
    }
    if (partitions < 0 && !created) {
      Status create = CreateTopic(deadline);
      if (!create.ok()) return create;
      created = true;
    }
    // Created but not visible yet, or no leader yet: ask again.
    if (RemainingMs(deadline) == 0) {
      return Status(StatusCode::kUnavailable,
                    fmt::format("topic '{}' at {} is not usable within {} ms: {}", config_.topic,
                                config_.bootstrap_servers, config_.deadline.count(),
                                topic_err != RD_KAFKA_RESP_ERR_NO_ERROR ? ErrorText(topic_err)
                                                                        : "not visible in the metadata"));
    }
    std::this_thread::sleep_for(std::min(milliseconds(50), milliseconds(RemainingMs(deadline))));
  }
}

Status RdKafkaLogClient::CreateTopic(Clock::time_point deadline) {
  char errstr[512];
  rd_kafka_NewTopic_t* new_topic = rd_kafka_NewTopic_new(config_.topic.c_str(), config_.expected_partitions, 1,
                                                         errstr, sizeof(errstr));
  if (new_topic == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}': {}", config_.topic, errstr));
  }
  std::unique_ptr<rd_kafka_NewTopic_t, void (*)(rd_kafka_NewTopic_t*)> topic_guard(new_topic,
                                                                                     &rd_kafka_NewTopic_destroy);
  // Compacted: only the latest state per record key has to be kept.
  rd_kafka_resp_err_t err = rd_kafka_NewTopic_set_config(new_topic, "cleanup.policy", "compact");
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}': {}", config_.topic, ErrorText(err)));
  }
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(producer_.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options_guard(
      options, &rd_kafka_AdminOptions_destroy);
  const int timeout_ms = std::max(1, RemainingMs(deadline));
  if (rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0 ||
      rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("create topic '{}': {}", config_.topic, errstr));
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(producer_.get());
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue_guard(queue, &rd_kafka_queue_destroy);
  rd_kafka_CreateTopics(producer_.get(), &new_topic, 1, options, queue);
  // Wait a little past the deadline for the admin call's own timeout report.
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, RemainingMs(deadline) + static_cast<int>(kQueryGrace.count()));
  if (event == nullptr) {
    return Status(StatusCode::kUnavailable, fmt::format("creating topic '{}' at {} did not finish within {} ms",
                                                        config_.topic, config_.bootstrap_servers,
                                                        config_.deadline.count()));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event_guard(event, &rd_kafka_event_destroy);
  std::string failure;
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failure = fmt::format("{}: {}", rd_kafka_err2name(rd_kafka_event_error(event)), rd_kafka_event_error_string(event));
  } else if (const rd_kafka_CreateTopics_result_t* result = rd_kafka_event_CreateTopics_result(event)) {
    size_t count = 0;
    const rd_kafka_topic_result_t** topics = rd_kafka_CreateTopics_result_topics(result, &count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_resp_err_t topic_err = rd_kafka_topic_result_error(topics[i]);
      // Someone else created it meanwhile: the metadata check decides.
      if (topic_err == RD_KAFKA_RESP_ERR_NO_ERROR || topic_err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) continue;
      const char* why = rd_kafka_topic_result_error_string(topics[i]);
      failure = fmt::format("{}: {}", rd_kafka_err2name(topic_err), why != nullptr ? why : rd_kafka_err2str(topic_err));
    }
  }
  if (!failure.empty()) {
    return Status(StatusCode::kUnavailable, fmt::format("cannot create topic '{}' at {}: {}", config_.topic,
                                                        config_.bootstrap_servers, failure));
  }
  return Status::Ok();
}

std::string RdKafkaLogClient::Where(int32_t partition) const {
  return fmt::format("topic '{}' partition {} at {}", config_.topic, partition, config_.bootstrap_servers);
}

// --- Producer ---------------------------------------------------------------

void RdKafkaLogClient::OnDelivery(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque) {
  static_cast<RdKafkaLogClient*>(opaque)->Deliver(rk, *message);
}

void RdKafkaLogClient::OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
  static_cast<RdKafkaLogClient*>(opaque)->last_error_ =
      fmt::format("{}: {}", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), reason);
}

void RdKafkaLogClient::Deliver(rd_kafka_t* rk, const rd_kafka_message_t& message) {
  const ProduceTicket ticket = reinterpret_cast<uintptr_t>(message._private);
  auto it = pending_.find(ticket);
  // Its waiter gave up (deadline, cancellation) or a fatal error failed it.
  if (it == pending_.end() || it->second.result.has_value()) return;
  const rd_kafka_msg_status_t status = rd_kafka_message_status(&message);
  if (message.err == RD_KAFKA_RESP_ERR_NO_ERROR && status == RD_KAFKA_MSG_STATUS_PERSISTED && message.offset >= 0) {
    it->second.result = RecordPosition{message.partition, message.offset};
    return;
  }
  // Never trust the offset of a failed delivery: it is -1 or -1001. A
  // success without an offset comes from DUPLICATE_SEQUENCE_NUMBER: the
  // broker says it has the record but not where.
  char unused[1];
  const bool fatal = rd_kafka_fatal_error(rk, unused, sizeof(unused)) != RD_KAFKA_RESP_ERR_NO_ERROR;
  const std::string what = fmt::format("produce to {}: {}{}", Where(it->second.partition),
                                       message.err != RD_KAFKA_RESP_ERR_NO_ERROR
                                           ? ErrorText(message.err)
                                           : fmt::format("acknowledged without a usable offset ({})", message.offset),
                                       fatal ? " (fatal producer error: the producer is recreated)" : "");
  it->second.result = status == RD_KAFKA_MSG_STATUS_NOT_PERSISTED ? Status(StatusCode::kNotPersisted, what)
                                                                  : Status(StatusCode::kPossiblyPersisted, what);
}

bool RdKafkaLogClient::RecoverFromFatalError() {
  if (!producer_) {
    // An earlier recreation failed; try again.
    Result<Producer> fresh = MakeProducer();
    if (fresh.ok()) producer_ = std::move(*fresh);
    return fresh.ok();
  }
  char errstr[512];
  const rd_kafka_resp_err_t err = rd_kafka_fatal_error(producer_.get(), errstr, sizeof(errstr));
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return false;
  ++producer_restarts_;
  const std::string why = fmt::format("fatal producer error at {}: {}: {}; producer recreated",
                                      config_.bootstrap_servers, rd_kafka_err2name(err), errstr);
  last_error_ = why;
  for (auto& [ticket, pending] : pending_) {
    if (!pending.result.has_value()) pending.result = Status(StatusCode::kPossiblyPersisted, why);
  }
  producer_.reset();
  Result<Producer> fresh = MakeProducer();
  if (fresh.ok()) producer_ = std::move(*fresh);
  return true;
}

ProduceTicket RdKafkaLogClient::Produce(int32_t partition, std::string key, std::string value) {
  const ProduceTicket ticket = next_ticket_++;
  if (partition < 0 || partition >= partitions_) {
    pending_[ticket] = Pending{partition, Status(StatusCode::kInvalidArgument,
                                                 fmt::format("partition {} of topic '{}' does not exist ({} partitions)",
                                                             partition, config_.topic, partitions_))};
    return ticket;
  }
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__FATAL;
  // Twice at most: a producer found in a fatal state is recreated once, and
  // the record (not sent anywhere yet) goes to the fresh one. The ticket is
  // registered only afterwards, so the recreation does not fail it; its
  // delivery report cannot arrive before the next poll.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (producer_) {
      err = rd_kafka_producev(producer_.get(), RD_KAFKA_V_TOPIC(config_.topic.c_str()),
                              RD_KAFKA_V_PARTITION(partition), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                              RD_KAFKA_V_KEY(key.data(), key.size()), RD_KAFKA_V_VALUE(value.data(), value.size()),
                              RD_KAFKA_V_OPAQUE(reinterpret_cast<void*>(static_cast<uintptr_t>(ticket))),
                              RD_KAFKA_V_END);
    }
    if (err != RD_KAFKA_RESP_ERR__FATAL || !RecoverFromFatalError()) break;
  }
  Pending& pending = pending_[ticket];
  pending.partition = partition;
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    pending.result = Status(StatusCode::kNotPersisted,
                            fmt::format("produce to {} refused: {}{}", Where(partition), ErrorText(err),
                                        producer_ ? "" : fmt::format(" ({})", last_error_)));
  }
  return ticket;
}

void RdKafkaLogClient::Flush() {
  if (!producer_) return;
  // _TIMED_OUT is not an error here: AwaitAck reports each record.
  (void)rd_kafka_flush(producer_.get(), static_cast<int>(config_.deadline.count()));
  RecoverFromFatalError();
}

boost::asio::awaitable<Result<RecordPosition>> RdKafkaLogClient::AwaitAck(ProduceTicket ticket) {
  auto it = pending_.find(ticket);
  if (it == pending_.end()) {
    co_return Status(StatusCode::kInternal, fmt::format("no produce with ticket {}", ticket));
  }
  // Never suspends, so a cancellation can only have been requested before.
  boost::asio::cancellation_state cancellation = co_await boost::asio::this_coro::cancellation_state;
  if (cancellation.cancelled() != boost::asio::cancellation_type::none) {
    pending_.erase(it);
    co_return Status(StatusCode::kCancelled,
                     fmt::format("wait for the acknowledgement of produce {} was cancelled", ticket));
  }
  const Clock::time_point deadline = Clock::now() + config_.deadline;
  while (!it->second.result.has_value() && producer_ && RemainingMs(deadline) > 0) {
    rd_kafka_poll(producer_.get(), SliceMs(deadline));
    RecoverFromFatalError();
  }
  if (!it->second.result.has_value()) {
    const std::string where = Where(it->second.partition);
    pending_.erase(it);
    co_return Status(StatusCode::kPossiblyPersisted,
                     fmt::format("no acknowledgement for produce to {} within {} ms{}", where,
                                 config_.deadline.count(),
                                 last_error_.empty() ? "" : fmt::format(" (last error: {})", last_error_)));
  }
  Result<RecordPosition> result = std::move(*it->second.result);
  pending_.erase(it);
  co_return result;
}

// --- Reader -----------------------------------------------------------------

Result<std::vector<PartitionOffsets>> RdKafkaLogClient::Offsets() {
  Result<std::shared_ptr<ReaderHandle>> reader = Reader();
  if (!reader.ok()) return reader.status();
  const Clock::time_point deadline = Clock::now() + config_.deadline;
  // librdkafka 2.0.2 can block in rd_kafka_query_watermark_offsets past its
  // timeout when the broker dies after the request went out (fixed in 2.3.0,
  // #4460), so the queries run on a thread of their own that is abandoned,
  // with its handle, at the deadline.
  auto query = std::make_shared<std::packaged_task<Result<std::vector<PartitionOffsets>>()>>(
      [handle = *reader, topic = config_.topic, partitions = partitions_, deadline,
       servers = config_.bootstrap_servers]() -> Result<std::vector<PartitionOffsets>> {
        std::vector<PartitionOffsets> out;
        for (int32_t p = 0; p < partitions; ++p) {
          int64_t low = 0;
          int64_t high = 0;
          const rd_kafka_resp_err_t err =
              rd_kafka_query_watermark_offsets(handle->rk, topic.c_str(), p, &low, &high, RemainingMs(deadline));
          if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            return Status(StatusCode::kUnavailable, fmt::format("offsets of topic '{}' partition {} at {}: {}{}", topic,
                                                                p, servers, ErrorText(err), handle->LastError()));
          }
          out.push_back(PartitionOffsets{low, high});
        }
        return out;
      });
  std::future<Result<std::vector<PartitionOffsets>>> answer = query->get_future();
  try {
    std::thread([query] { (*query)(); }).detach();
  } catch (const std::system_error& error) {
    return Status(StatusCode::kInternal, fmt::format("offsets of topic '{}': no thread: {}", config_.topic, error.what()));
  }
  if (answer.wait_until(deadline + kQueryGrace) != std::future_status::ready) {
    const std::string last_error = (*reader)->LastError();
    reader_.reset();  // the abandoned thread keeps its own reference
    return Status(StatusCode::kUnavailable, fmt::format("offsets of topic '{}' at {}: no answer within {} ms{}",
                                                        config_.topic, config_.bootstrap_servers,
                                                        config_.deadline.count(), last_error));
  }
  return answer.get();
}

Result<std::vector<LogRecord>> RdKafkaLogClient::Read(int32_t partition, int64_t from, int64_t to) {
  if (partition < 0 || partition >= partitions_) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partition {} of topic '{}' does not exist ({} partitions)",
                                                            partition, config_.topic, partitions_));
  }
  if (from < 0 || from > to) {
    return Status(StatusCode::kInvalidArgument, fmt::format("bad read range [{}, {}) of {}", from, to, Where(partition)));
  }
  if (from == to) return std::vector<LogRecord>{};
  Result<std::shared_ptr<ReaderHandle>> reader = Reader();
  if (!reader.ok()) return reader.status();
  rd_kafka_t* rk = (*reader)->rk;
  const std::string range = fmt::format("read of [{}, {}) of {}", from, to, Where(partition));

  std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter> assignment(
      rd_kafka_topic_partition_list_new(1));
  // An absolute offset: no committed-offset lookup, no reset policy involved.
  rd_kafka_topic_partition_list_add(assignment.get(), config_.topic.c_str(), partition)->offset = from;
  rd_kafka_resp_err_t err = rd_kafka_assign(rk, assignment.get());
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kUnavailable, fmt::format("{}: assign failed: {}", range, ErrorText(err)));
  }

  const Clock::time_point deadline = Clock::now() + config_.deadline;
  std::vector<LogRecord> records;
  int64_t next = from;
  std::optional<Status> failure;
  std::string last_error;
  bool done = false;
  while (!done && !failure.has_value()) {
    if (RemainingMs(deadline) == 0) {
      failure = Status(StatusCode::kUnavailable,
                       fmt::format("{}: stopped at offset {} after {} ms{}", range, next, config_.deadline.count(),
                                   last_error.empty() ? (*reader)->LastError()
                                                      : fmt::format(" (last error: {})", last_error)));
      break;
    }
    rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, SliceMs(deadline));
    if (message == nullptr) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> guard(message, &rd_kafka_message_destroy);
    const bool ours = message->rkt != nullptr && message->partition == partition;
    switch (message->err) {
      case RD_KAFKA_RESP_ERR_NO_ERROR:
        if (!ours || message->offset < next) break;  // not ours, or seen
        if (message->offset >= to) {
          done = true;  // a gap (compaction, markers) right before `to`
          break;
        }
        records.push_back(LogRecord{partition, message->offset,
                                    std::string(static_cast<const char*>(message->key), message->key_len),
                                    std::string(static_cast<const char*>(message->payload), message->len)});
        next = message->offset + 1;
        done = next >= to;
        break;
      case RD_KAFKA_RESP_ERR__PARTITION_EOF:
        if (!ours) break;
        if (message->offset >= to) {
          done = true;
        } else {
          failure = Status(StatusCode::kInvalidRecovery,
                           fmt::format("{}: the log ends at offset {}, before the end of the range", range,
                                       message->offset));
        }
        break;
      case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
      case RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE:
        failure = Status(StatusCode::kInvalidRecovery,
                         fmt::format("{}: offset {} is outside the log (records below the log start were deleted, "
                                     "or the range is past its end): {}",
                                     range, next, rd_kafka_message_errstr(message)));
        break;
      case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
      case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
      case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
      case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
        failure = Status(StatusCode::kUnavailable, fmt::format("{}: {}: {}", range, rd_kafka_err2name(message->err),
                                                               rd_kafka_message_errstr(message)));
        break;
      default:
        // Transport errors and the like: librdkafka retries; keep the
        // reason for the timeout message.
        last_error = fmt::format("{}: {}", rd_kafka_err2name(message->err), rd_kafka_message_errstr(message));
        break;
    }
  }
  // Stop fetching until the next read; a failed reader is replaced so that
  // nothing of this read can leak into the next one.
  (void)rd_kafka_assign(rk, nullptr);
  if (failure.has_value()) {
    reader_.reset();
    return *failure;
  }
  return records;
}

}  // namespace durasim
