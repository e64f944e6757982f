// What the librdkafka client's rooms share (rdkafka_support.h).
#include "store/rdkafka_support.h"

#include <algorithm>
#include <atomic>

#include "store/format.h"
#include "store/rdkafka_reaper.h"

namespace durasim::rdkafka {

namespace {

std::atomic<bool (*)()> interrupt_source{nullptr};

}  // namespace

bool InterruptRequested() {
  bool (*requested)() = interrupt_source.load(std::memory_order_acquire);
  return requested != nullptr && requested();
}

int RemainingMs(Clock::time_point deadline) {
  if (InterruptRequested()) return 0;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::max<int64_t>(0, left));
}

int SliceMs(Clock::time_point deadline) {
  return std::min(RemainingMs(deadline), static_cast<int>(kPollSlice.count()));
}

int BlockingMs(Clock::time_point deadline) {
  return std::max(1, std::min(RemainingMs(deadline), static_cast<int>(kBlockingSlice.count())));
}

rd_kafka_event_t* PollAdminAnswer(rd_kafka_queue_t* queue, Clock::time_point deadline) {
  const Clock::time_point until = deadline + kQueryGrace;
  while (!InterruptRequested()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) return nullptr;
    const int slice = static_cast<int>(std::min<int64_t>(left, kBlockingSlice.count()));
    if (rd_kafka_event_t* event = rd_kafka_queue_poll(queue, slice)) return event;
  }
  return nullptr;
}

Status AsInterrupted(Status failed) {
  const bool a_wait = failed.code() == StatusCode::kUnavailable || failed.code() == StatusCode::kPossiblyPersisted;
  if (!a_wait || !InterruptRequested()) return failed;
  return Status(StatusCode::kCancelled, "interrupted by a signal (" + failed.message() + ")");
}

std::string ErrorText(rd_kafka_resp_err_t err) {
  return fmt::format("{} ({})", rd_kafka_err2str(err), rd_kafka_err2name(err));
}

std::string LastErrorSuffix(const std::string& last_error) {
  return last_error.empty() ? "" : fmt::format(" (last error: {})", last_error);
}

std::string Where(const RdKafkaConfig& config, int32_t partition) {
  return fmt::format("topic '{}' partition {} at {}", config.topic, partition, config.bootstrap_servers);
}

Status SetAll(rd_kafka_conf_t* conf, const std::vector<std::pair<std::string, std::string>>& properties) {
  RouteLog(conf);
  char errstr[512];
  for (const auto& [name, value] : properties) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
      return Status(StatusCode::kInvalidArgument, fmt::format("librdkafka property {}={}: {}", name, value, errstr));
    }
  }
  return Status::Ok();
}

}  // namespace durasim::rdkafka

namespace durasim {

RdKafkaConsumer::~RdKafkaConsumer() {
  if (rk == nullptr) return;
  // Not closed here (rd_kafka_consumer_close): it never joined its group
  // (it assigns partitions, never subscribes) and commits nothing by
  // itself, so a close has nothing to do but wait for its group's shutdown,
  // which waits for any commit still in flight, with no timeout of its own:
  // a commit of the topic's incarnation left to a broker that stopped
  // answering held the run's thread. That wait now happens in the
  // background teardown, which nothing waits for but the process's exit,
  // 10 s at most (rdkafka_reaper.h); librdkafka retries nothing while a
  // handle terminates, so it ends with the request's socket.timeout.ms. No
  // callback is served there, so this object (the error callback's opaque)
  // may go now.
  rdkafka::DestroyInBackground(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
}

std::string RdKafkaConsumer::LastError() {
  std::lock_guard<std::mutex> lock(mu);
  return rdkafka::LastErrorSuffix(last_error);
}

void RdKafkaConsumer::OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
  auto* self = static_cast<RdKafkaConsumer*>(opaque);
  std::lock_guard<std::mutex> lock(self->mu);
  self->last_error = fmt::format("{}: {}", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), reason);
  switch (static_cast<rd_kafka_resp_err_t>(err)) {
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__RESOLVE: self->lost_connection = true; break;
    default: break;
  }
}

bool RdKafkaConsumer::TakeLostConnection() {
  std::lock_guard<std::mutex> lock(mu);
  const bool lost = lost_connection;
  lost_connection = false;
  return lost;
}

void SetRdKafkaInterruptSource(bool (*requested)()) {
  rdkafka::interrupt_source.store(requested, std::memory_order_release);
}

}  // namespace durasim
