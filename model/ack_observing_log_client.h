// AckObservingLogClient: for backends that do not report appends (librdkafka
// mock cluster, real broker), learns of each append from its
// acknowledgement: it reports the record to the checkers and the fault plan
// as persisted, then charges the model's acknowledgement latency in
// simulated time, so a run keeps the model's timing whatever the backend.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#pragma once

#include <functional>
#include <map>

#include "sim/scheduler.h"
#include "store/log_client.h"

namespace durasim {

class AckObservingLogClient : public LogClient {
 public:
  using OnPersisted = std::function<void(const LogRecord&)>;
  // REQUIRES: `inner` and `scheduler` outlive the wrapper.
  AckObservingLogClient(LogClient& inner, Scheduler& scheduler, SimDuration ack_latency, OnPersisted on_persisted)
      : inner_(inner), scheduler_(scheduler), ack_latency_(ack_latency), on_persisted_(std::move(on_persisted)) {}

  int32_t partition_count() const override { return inner_.partition_count(); }
  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  void Flush() override { inner_.Flush(); }
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;
  Result<std::vector<PartitionOffsets>> Offsets() override { return inner_.Offsets(); }
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override {
    return inner_.Read(partition, from, to);
  }

 private:
  struct Produced {
    std::string key;
    std::string value;
  };
  LogClient& inner_;
  Scheduler& scheduler_;
  SimDuration ack_latency_;
  OnPersisted on_persisted_;
  std::map<ProduceTicket, Produced> produced_;
};

}  // namespace durasim
