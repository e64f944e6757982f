// FaultyLogClient: wraps any LogClient and injects the write faults a
// FaultPlan asks for: a rejected write (never forwarded; not persisted), a
// lost acknowledgement (forwarded and persisted; the caller hears "possibly
// persisted"), a cancelled wait, a crash after an acknowledgement. The store
// under test never knows it is wrapped. Where the broker has controls of its
// own (librdkafka's mock cluster), the rejection and the lost acknowledgement
// come from the broker instead, through BrokerWriteFaults; the caller hears
// the same answers at the same simulated instants.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>

#include "model/decoded_values.h"
#include "model/fault_plan.h"
#include "store/forwarding_log_client.h"
#include "store/node_pool.h"

namespace durasim {

// The broker's own write-fault controls.
class BrokerWriteFaults {
 public:
  virtual ~BrokerWriteFaults() = default;
  // Sends a record for the broker to refuse, now; returns the broker's answer
  // (kNotPersisted expected).
  virtual Result<RecordPosition> SendRefused(int32_t partition, std::string key, std::string value) = 0;
  // The next record sent with exactly these contents is persisted by the
  // broker, which loses its acknowledgement (kPossiblyPersisted expected).
  virtual void LoseAckOf(int32_t partition, const std::string& key, const std::string& value) = 0;
  // That record will not be sent after all (its delivery timed out).
  virtual void ForgetLostAck(int32_t partition, const std::string& key, const std::string& value) = 0;
};

class FaultyLogClient : public ForwardingLogClient {
 public:
  // REQUIRES: `inner`, `plan` and `broker` (when given) outlive the wrapper.
  // With `broker`, a rejected put is sent, at the instant the model answers,
  // for the broker to refuse, and a lost acknowledgement is lost by the
  // broker; an answer other than the expected one is a kInternal error.
  // `subtask` names the subtask whose producer this is. `values` (when
  // given, outliving the wrapper) decodes the values it is handed.
  FaultyLogClient(LogClient& inner, FaultPlan& plan, BrokerWriteFaults* broker = nullptr, int subtask = 0,
                  DecodedValues* values = nullptr)
      : ForwardingLogClient(inner), plan_(plan), broker_(broker), subtask_(subtask), values_(values) {}

  ProduceTicket Produce(int32_t partition, std::string key, std::string value) override;
  boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) override;

  // While on, every state this client writes is a snapshot's rewrite
  // (PutPoint::kRewrite): the attempt turns it on while a subtask snapshots.
  void SetSnapshotWrites(bool on) { snapshot_writes_ = on; }
  // Runs `act` once, when the next rebuild has captured the log's end and is
  // about to read (WillRead): the attempt's steps during a rebuild.
  void BeforeNextRead(std::function<void()> act) { before_next_read_ = std::move(act); }
  void WillRead(const std::vector<ReadRange>& ranges) override {
    if (std::function<void()> act = std::exchange(before_next_read_, nullptr)) act();
    ForwardingLogClient::WillRead(ranges);
  }

 private:
  struct Produced {
    FaultPlan::PutFate fate;
    int64_t ordinal;
    FaultPoint point;  // what the write is
    ProduceTicket inner_ticket;
    LogRecord record;  // with a broker injecting the fault: the rejected or ack-losing put's record
  };

  FaultPlan& plan_;
  bool snapshot_writes_ = false;
  std::function<void()> before_next_read_;
  BrokerWriteFaults* broker_;
  int subtask_;
  DecodedValues* values_;
  std::map<ProduceTicket, Produced> produced_;
  NodePool<std::map<ProduceTicket, Produced>> produced_nodes_;  // a put's entry comes and goes
  ProduceTicket next_ticket_ = 1;
};

}  // namespace durasim
