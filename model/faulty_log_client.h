// FaultyLogClient: wraps any LogClient and injects the write faults a
// FaultPlan asks for: a rejected write (never forwarded; not persisted; or,
// where the broker can refuse a write, sent to be refused by it), a
// lost acknowledgement (forwarded and persisted; the caller hears "possibly
// persisted"), a cancelled wait, a crash after an acknowledgement. The store
// under test never knows it is wrapped.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#pragma once

#include <functional>
#include <map>

#include "model/fault_plan.h"
#include "store/forwarding_log_client.h"

namespace durasim {

class FaultyLogClient : public ForwardingLogClient {
 public:
  // Sends a record the broker refuses and returns the broker's answer.
  using SendRefused = std::function<Result<RecordPosition>(int32_t partition, std::string key, std::string value)>;

  // REQUIRES: both outlive the wrapper. With `send_refused`, a rejected put
  // is sent, at the instant the model would answer, to be refused by the
  // broker itself; its answer must be kNotPersisted.
  FaultyLogClient(LogClient& inner, FaultPlan& plan, SendRefused send_refused = nullptr)
      : ForwardingLogClient(inner), plan_(plan), send_refused_(std::move(send_refused)) {}

  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;

 private:
  struct Produced {
    FaultPlan::PutFate fate;
    int64_t ordinal;
    ProduceTicket inner_ticket;
    LogRecord refused;  // a rejected put's record, when the broker refuses it
  };

  FaultPlan& plan_;
  SendRefused send_refused_;
  std::map<ProduceTicket, Produced> produced_;
  ProduceTicket next_ticket_ = 1;
};

}  // namespace durasim
