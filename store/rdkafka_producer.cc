// RdKafkaProducer implementation over librdkafka's C API.
#include "store/rdkafka_producer.h"

#include <algorithm>
#include <boost/asio/this_coro.hpp>
#include <chrono>
#include <utility>
#include <vector>

#include "store/format.h"
#include "store/rdkafka_reaper.h"
#include "store/rdkafka_support.h"

namespace durasim {

using rdkafka::Clock;
using rdkafka::ErrorText;
using rdkafka::LastErrorSuffix;
using rdkafka::RemainingMs;
using rdkafka::Where;

void RdKafkaProducer::HandleDeleter::operator()(rd_kafka_t* rk) const {
  // A crash: whatever is queued or in flight is dropped, not delivered.
  rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  // The purged records' reports are never served; the teardown (joining
  // the handle's threads) need not hold up the caller.
  rdkafka::DestroyInBackground(rk);
}

RdKafkaProducer::~RdKafkaProducer() { handle_.reset(); }  // before the tickets its callbacks fill

Status RdKafkaProducer::Start() {
  if (handle_ || started_) return Status::Ok();
  Result<Handle> handle = MakeHandle();
  if (!handle.ok()) return handle.status();
  handle_ = std::move(*handle);
  started_ = true;
  // Ask for the metadata at once and wait for it: its answer is what
  // starts the idempotent producer's ProducerId request; without it, a
  // record produced now waits for librdkafka's retry of that request, up
  // to 500 ms (the metadata it would fetch for the record comes too late).
  // It only speeds the first write up, so it waits one blocking slice at
  // most: a broker that is gone must cost the write one deadline (its
  // delivery report's), not two. A failure is the write's to report.
  const rd_kafka_metadata_t* metadata = nullptr;
  const rdkafka::Clock::time_point deadline =
      rdkafka::Clock::now() + std::min<std::chrono::milliseconds>(config_.deadline, rdkafka::kBlockingSlice);
  const rd_kafka_resp_err_t asked = rdkafka::CallInSlices(
      deadline, [&](int slice) { return rd_kafka_metadata(handle_.get(), 1, nullptr, &metadata, slice); });
  if (asked == RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_metadata_destroy(metadata);
  } else {
    last_error_ = fmt::format("the producer's first metadata request: {}", rdkafka::ErrorText(asked));
  }
  return Status::Ok();
}

Result<rd_kafka_t*> RdKafkaProducer::StartedHandle() {
  if (Status started = Start(); !started.ok()) return started;
  if (!handle_) {
    return Status(StatusCode::kUnavailable, fmt::format("no producer for {}: its recreation after a fatal error "
                                                        "failed{}",
                                                        config_.bootstrap_servers, LastErrorSuffix(last_error_)));
  }
  return handle_.get();
}

Result<RdKafkaProducer::Handle> RdKafkaProducer::MakeHandle() {
  rdkafka::Conf conf(rd_kafka_conf_new());
  std::vector<std::pair<std::string, std::string>> properties = {
      {"bootstrap.servers", config_.bootstrap_servers},
      {"acks", "all"},
      {"enable.idempotence", "true"},
      // linger.ms stays at its default (5 ms): the store flushes before it
      // awaits an acknowledgement.
      {"message.timeout.ms", std::to_string(config_.message_timeout.count())},
      // Reconnect fast after a broker comes back (the default backoff of up
      // to 10 s outlives a short outage).
      {"reconnect.backoff.ms", std::to_string(config_.reconnect_backoff.count())},
      {"reconnect.backoff.max.ms", std::to_string(config_.reconnect_backoff_max.count())},
  };
  if (config_.producer_retries.has_value()) {
    properties.emplace_back("message.send.max.retries", std::to_string(*config_.producer_retries));
  }
  Status set = rdkafka::SetAll(conf.get(), properties);
  if (!set.ok()) return set;
  rd_kafka_conf_set_opaque(conf.get(), this);
  rd_kafka_conf_set_dr_msg_cb(conf.get(), &RdKafkaProducer::OnDelivery);
  rd_kafka_conf_set_error_cb(conf.get(), &RdKafkaProducer::OnError);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof(errstr));
  if (rk == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("cannot create a producer for {}: {}",
                                                            config_.bootstrap_servers, errstr));
  }
  conf.release();  // rd_kafka_new owns it now
  return Handle(rk);
}

void RdKafkaProducer::OnDelivery(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque) {
  static_cast<RdKafkaProducer*>(opaque)->Deliver(rk, *message);
}

void RdKafkaProducer::OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
  static_cast<RdKafkaProducer*>(opaque)->last_error_ =
      fmt::format("{}: {}", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), reason);
}

void RdKafkaProducer::AbandonUnacknowledged() {
  if (handle_) (void)rd_kafka_purge(handle_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
}

void RdKafkaProducer::ServeCallbacks() {
  if (handle_) rd_kafka_poll(handle_.get(), 0);
}

void RdKafkaProducer::Deliver(rd_kafka_t* rk, const rd_kafka_message_t& message) {
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
  const std::string what = fmt::format("produce to {}: {}{}", Where(config_, it->second.partition),
                                       message.err != RD_KAFKA_RESP_ERR_NO_ERROR
                                           ? ErrorText(message.err)
                                           : fmt::format("acknowledged without a usable offset ({})", message.offset),
                                       fatal ? " (fatal producer error: the producer is recreated)" : "");
  it->second.result = status == RD_KAFKA_MSG_STATUS_NOT_PERSISTED ? Status(StatusCode::kNotPersisted, what)
                                                                  : Status(StatusCode::kPossiblyPersisted, what);
}

bool RdKafkaProducer::RecoverFromFatalError() {
  if (!handle_) {
    // An earlier recreation failed; try again.
    Result<Handle> fresh = MakeHandle();
    if (fresh.ok()) handle_ = std::move(*fresh);
    return fresh.ok();
  }
  char errstr[512];
  const rd_kafka_resp_err_t err = rd_kafka_fatal_error(handle_.get(), errstr, sizeof(errstr));
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return false;
  ++restarts_;
  const std::string why = fmt::format("fatal producer error at {}: {}: {}; producer recreated",
                                      config_.bootstrap_servers, rd_kafka_err2name(err), errstr);
  last_error_ = why;
  for (auto& [ticket, pending] : pending_) {
    if (!pending.result.has_value()) pending.result = Status(StatusCode::kPossiblyPersisted, why);
  }
  handle_.reset();
  Result<Handle> fresh = MakeHandle();
  if (fresh.ok()) handle_ = std::move(*fresh);
  return true;
}

ProduceTicket RdKafkaProducer::Produce(int32_t partition, std::string key, std::string value) {
  const ProduceTicket ticket = next_ticket_++;
  if (partition < 0 || partition >= partitions_) {
    pending_[ticket] = Pending{partition, Status(StatusCode::kInvalidArgument,
                                                 fmt::format("partition {} of topic '{}' does not exist ({} partitions)",
                                                             partition, config_.topic, partitions_))};
    return ticket;
  }
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__FATAL;
  if (Status started = Start(); !started.ok()) last_error_ = started.message();
  // Twice at most: a producer found in a fatal state is recreated once, and
  // the record (not sent anywhere yet) goes to the fresh one. The ticket is
  // registered only afterwards, so the recreation does not fail it; its
  // delivery report cannot arrive before the next poll.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (handle_) {
      err = rd_kafka_producev(handle_.get(), RD_KAFKA_V_TOPIC(config_.topic.c_str()),
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
                            fmt::format("produce to {} refused: {}{}", Where(config_, partition), ErrorText(err),
                                        handle_ ? "" : fmt::format(" ({})", last_error_)));
  }
  return ticket;
}

void RdKafkaProducer::Flush() {
  if (!handle_) return;
  // _TIMED_OUT is not an error here: AwaitAck reports each record.
  (void)rd_kafka_flush(handle_.get(), static_cast<int>(config_.deadline.count()));
  RecoverFromFatalError();
}

boost::asio::awaitable<Result<RecordPosition>> RdKafkaProducer::AwaitAck(ProduceTicket ticket) {
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
  while (!it->second.result.has_value() && handle_ && RemainingMs(deadline) > 0) {
    rd_kafka_poll(handle_.get(), rdkafka::SliceMs(deadline));
    RecoverFromFatalError();
  }
  if (!it->second.result.has_value()) {
    const std::string where = Where(config_, it->second.partition);
    pending_.erase(it);
    co_return Status(StatusCode::kPossiblyPersisted,
                     fmt::format("no acknowledgement for produce to {} within {} ms{}", where,
                                 config_.deadline.count(), LastErrorSuffix(last_error_)));
  }
  Result<RecordPosition> result = std::move(*it->second.result);
  pending_.erase(it);
  co_return result;
}

}  // namespace durasim
