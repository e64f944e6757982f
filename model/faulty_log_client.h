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
#include "store/log_client.h"

namespace durasim {

class FaultyLogClient : public LogClient {
 public:
  // REQUIRES: both outlive the wrapper.
  FaultyLogClient(LogClient& inner, FaultPlan& plan) : inner_(inner), plan_(plan) {}

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
    FaultPlan::PutFate fate;
    int64_t ordinal;
    ProduceTicket inner_ticket;
  };

  LogClient& inner_;
  FaultPlan& plan_;
  std::map<ProduceTicket, Produced> produced_;
  ProduceTicket next_ticket_ = 1;
};

}  // namespace durasim
