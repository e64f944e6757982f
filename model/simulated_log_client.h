// SimulatedLogClient: a Kafka producer and reader in simulated time over a
// RecordSink (the in-memory KafkaLog, or a real client on librdkafka's mock
// cluster or a real broker). Produced records wait in the producer's buffer
// until the linger expires or Flush() sends them; a sent record is appended
// to the sink at once and acknowledged `ack_latency_ms` later (on a perturbed
// schedule, a latency drawn in its range, never ahead of an earlier
// acknowledgement of the same partition). While the
// broker is down (the outage window of `outage`, in simulated time), sends
// are retried until `delivery_timeout_ms` after the produce, then fail as not
// persisted, and reads fail as unavailable. A crash (destroying the client
// and its scheduler) loses the unsent buffer and every acknowledgement still
// in flight.
//
// Over a real broker this keeps the model's timing whatever the wall clock
// does: the real client is only called at the simulated instants the model
// would touch the broker.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "model/kafka_log.h"
#include "model/backends/record_sink.h"
#include "model/scenario.h"
#include "model/scheduler.h"
#include "store/log_client.h"

namespace durasim {

class SimulatedLogClient : public LogClient {
 public:
  // REQUIRES: `scheduler` and `outage` outlive the client.
  SimulatedLogClient(Scheduler& scheduler, const KafkaLog& outage, const LogConfig& config,
                     std::unique_ptr<RecordSink> sink);

  int32_t partition_count() const override { return sink_->partitions(); }
  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  void Flush() override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;
  Result<std::vector<PartitionOffsets>> Offsets() override;
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;
  Result<TopicIdentity> Topic() override;
  // While fetches are slow (KafkaLog::FetchesSlow), one fetch blocks for
  // kFetchWait of simulated time and returns nothing; otherwise it reads
  // the whole range.
  Result<FetchResult> Fetch(int32_t partition, int64_t from, int64_t to) override;
  // Passes the hint to the sink while the broker is up; nothing simulated
  // happens (no time passes, nothing is drawn), so no trace changes.
  void WillRead(const std::vector<ReadRange>& ranges) override {
    if (outage_.IsUp(scheduler_.now())) sink_->WillRead(ranges);
  }

  // fetch.wait.max.ms of the simulated consumer.
  static constexpr std::chrono::milliseconds kFetchWait{100};

  size_t buffered() const { return buffer_.size(); }

 private:
  struct Buffered {
    ProduceTicket ticket;
    int32_t partition;
    std::string key;
    std::string value;
    SimTime produced_at;
  };
  struct Pending {
    std::optional<Result<RecordPosition>> result;
    std::optional<SimSignal> arrived;  // in the node: a pending produce never moves
  };

  void SendBuffered();
  void ArmRetry(SimTime at);
  void Deliver(ProduceTicket ticket, Result<RecordPosition> result);

  Scheduler& scheduler_;
  const KafkaLog& outage_;
  LogConfig config_;
  std::unique_ptr<RecordSink> sink_;
  std::deque<Buffered> buffer_;
  std::map<ProduceTicket, Pending> pending_;
  std::map<int32_t, SimTime> last_ack_at_;  // per partition: when its latest acknowledgement is due
  // Per partition: the acknowledgements sent and not yet delivered, in send
  // order (each ack timer delivers the front).
  struct DueAck {
    ProduceTicket ticket;
    Result<RecordPosition> answer;
  };
  std::map<int32_t, std::deque<DueAck>> acks_due_;
  ProduceTicket next_ticket_ = 1;
  bool linger_armed_ = false;
  bool retry_armed_ = false;
};

}  // namespace durasim
