// FaultyLogClient: wraps any LogClient and injects the write faults a
// FaultPlan asks for: a rejected write (never forwarded; not persisted), a
// lost acknowledgement (forwarded and persisted; the caller hears "possibly
// persisted"), a cancelled wait, a crash after an acknowledgement. The store
// under test never knows it is wrapped.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#pragma once

#include <map>

#include "model/fault_plan.h"
#include "store/forwarding_log_client.h"

namespace durasim {

class FaultyLogClient : public ForwardingLogClient {
 public:
  // REQUIRES: both outlive the wrapper.
  FaultyLogClient(LogClient& inner, FaultPlan& plan) : ForwardingLogClient(inner), plan_(plan) {}

  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;

 private:
  struct Produced {
    FaultPlan::PutFate fate;
    int64_t ordinal;
    ProduceTicket inner_ticket;
  };

  FaultPlan& plan_;
  std::map<ProduceTicket, Produced> produced_;
  ProduceTicket next_ticket_ = 1;
};

}  // namespace durasim
