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
#include "store/forwarding_log_client.h"

namespace durasim {

class AckObservingLogClient : public ForwardingLogClient {
 public:
  using OnPersisted = std::function<void(const LogRecord&)>;
  // REQUIRES: `inner` and `scheduler` outlive the wrapper.
  AckObservingLogClient(LogClient& inner, Scheduler& scheduler, SimDuration ack_latency, OnPersisted on_persisted)
      : ForwardingLogClient(inner),
        scheduler_(scheduler),
        ack_latency_(ack_latency),
        on_persisted_(std::move(on_persisted)) {}

  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;

 private:
  struct Produced {
    std::string key;
    std::string value;
  };
  Scheduler& scheduler_;
  SimDuration ack_latency_;
  OnPersisted on_persisted_;
  std::map<ProduceTicket, Produced> produced_;
};

}  // namespace durasim
