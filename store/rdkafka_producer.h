// RdKafkaProducer: the producing room of the librdkafka client
// (rdkafka_log_client.h). An idempotent, acks=all producer with an explicit
// partition per record; the delivery report fills the ticket's result,
// mapped through rd_kafka_message_status onto kNotPersisted /
// kPossiblyPersisted. A fatal producer error recreates the producer and fails
// every unresolved ticket as possibly persisted. Destroying it is a crash:
// queued and in-flight records are purged, not flushed.
//
// Thread-safety: none; one thread uses it. librdkafka's own threads never
// call back into it: delivery reports and errors are served from Flush,
// AwaitAck and ServeCallbacks on the caller's thread.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "store/log_client.h"
#include "store/rdkafka_config.h"

struct rd_kafka_s;          // rd_kafka_t
struct rd_kafka_message_s;  // rd_kafka_message_t

namespace durasim {

class RdKafkaProducer {
 public:
  // REQUIRES: `config` outlives the producer; its message_timeout is set.
  explicit RdKafkaProducer(const RdKafkaConfig& config) : config_(config) {}
  ~RdKafkaProducer();
  RdKafkaProducer(const RdKafkaProducer&) = delete;
  RdKafkaProducer& operator=(const RdKafkaProducer&) = delete;

  // Creates the librdkafka producer unless it has one. Produce calls it: a
  // client that never writes never connects a producer (on the mock
  // differential, most do not: a handle is three threads and a connection).
  // Errors: kInvalidArgument.
  [[nodiscard]] Status Start();
  // The librdkafka handle (for admin calls), created if need be (Start).
  Result<rd_kafka_s*> StartedHandle();
  // The topic's partition count, once known; Produce refuses others.
  void set_partition_count(int32_t partitions) { partitions_ = partitions; }

  ProduceTicket Produce(int32_t partition, std::string key, std::string value);
  // rd_kafka_flush bounded by the deadline; serves delivery reports.
  void Flush();
  // Polls the producer until the delivery report arrives or the deadline
  // passes (then kPossiblyPersisted). A wait whose cancellation was already
  // requested returns kCancelled.
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket);

  // Gives up on every record not acknowledged yet (rd_kafka_purge): a
  // record in flight is reported possibly persisted, one still queued not
  // persisted, at the next poll (AwaitAck); a later answer of the broker is
  // ignored.
  void AbandonUnacknowledged();
  // Serves pending error callbacks, so that last_error() is current.
  void ServeCallbacks();
  // The latest error callback, for messages.
  const std::string& last_error() const { return last_error_; }
  // How many times a fatal error made it recreate its producer.
  int restarts() const { return restarts_; }

 private:
  struct HandleDeleter {
    void operator()(rd_kafka_s* rk) const;
  };
  using Handle = std::unique_ptr<rd_kafka_s, HandleDeleter>;
  struct Pending {
    int32_t partition = 0;
    std::optional<Result<RecordPosition>> result;
  };

  Result<Handle> MakeHandle();
  // Recreates the producer after a fatal error; unresolved tickets fail as
  // possibly persisted. Returns whether it did.
  bool RecoverFromFatalError();
  void Deliver(rd_kafka_s* rk, const rd_kafka_message_s& message);

  static void OnDelivery(rd_kafka_s* rk, const rd_kafka_message_s* message, void* opaque);
  static void OnError(rd_kafka_s* rk, int err, const char* reason, void* opaque);

  const RdKafkaConfig& config_;
  int32_t partitions_ = 0;
  Handle handle_;
  bool started_ = false;  // Start made a handle once (a failed recreation leaves none)
  std::map<ProduceTicket, Pending> pending_;
  ProduceTicket next_ticket_ = 1;
  std::string last_error_;
  int restarts_ = 0;
};

}  // namespace durasim
