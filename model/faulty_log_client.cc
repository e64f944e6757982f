// FaultyLogClient implementation.
#include "model/faulty_log_client.h"

#include "store/check.h"
#include "store/format.h"

namespace durasim {

namespace {
// The answer to a put whose acknowledgement was lost, the same on every
// backend (the trace compares it).
Status LostAck(int64_t ordinal) {
  return Status(StatusCode::kPossiblyPersisted,
                fmt::format("acknowledgement of put {} lost; the write may be persisted", ordinal));
}
}  // namespace

ProduceTicket FaultyLogClient::Produce(int32_t partition, std::string key, std::string value) {
  Produced produced{};
  if (plan_.needs_put_points()) {
    produced.point = PutFaultPoint(key, value, subtask_, values_);
    if (snapshot_writes_) produced.point = AsRewrite(std::move(produced.point));
  } else {
    produced.point.subtask = subtask_;  // the run without faults: nobody reads the rest
  }
  produced.fate = plan_.OnProduce(produced.ordinal, produced.point);
  DURASIM_CHECK_GE(produced.ordinal, 1);  // puts are counted from 1
  if (broker_ != nullptr && produced.fate != FaultPlan::PutFate::kDeliver) {
    produced.record = LogRecord{partition, -1, key, value};
    if (produced.fate == FaultPlan::PutFate::kLoseAck) broker_->LoseAckOf(partition, key, value);
  }
  if (produced.fate != FaultPlan::PutFate::kReject) {
    produced.inner_ticket = inner().Produce(partition, std::move(key), std::move(value));
  }
  const ProduceTicket ticket = next_ticket_++;
  // Tickets only grow: the newest goes last (NodePool checks it is new).
  produced_nodes_.Insert(produced_, produced_.end(), ticket, std::move(produced));
  return ticket;
}

boost::asio::awaitable<Result<RecordPosition>> FaultyLogClient::AwaitAck(ProduceTicket ticket) {
  auto it = produced_.find(ticket);
  if (it == produced_.end()) {
    co_return Status(StatusCode::kInternal, fmt::format("no produce with ticket {}", ticket));
  }
  Produced produced = std::move(it->second);
  produced_nodes_.Erase(produced_, it);
  // With a broker injecting the fault, the put's record was kept (unsent,
  // offset -1) when it was produced.
  if (broker_ != nullptr && produced.fate != FaultPlan::PutFate::kDeliver) {
    DURASIM_CHECK_EQ(produced.record.offset, -1);
  }
  if (produced.fate == FaultPlan::PutFate::kReject) {
    if (broker_ != nullptr) {
      LogRecord& record = produced.record;

      Result<RecordPosition> answer =
          broker_->SendRefused(record.partition, std::move(record.key), std::move(record.value));
      if (answer.ok() || answer.status().code() != StatusCode::kNotPersisted) {
        co_return Status(StatusCode::kInternal,
                         fmt::format("put {} was to be refused by the broker, which answered {}", produced.ordinal,
                                     answer.ok() ? fmt::format("offset {}", answer->offset) : answer.status().ToString()));
      }
    }
    co_return Status(StatusCode::kNotPersisted, fmt::format("put {} rejected by the broker", produced.ordinal));
  }
  plan_.OnWaitStarted(produced.ordinal);
  Result<RecordPosition> ack = co_await inner().AwaitAck(produced.inner_ticket);
  if (produced.fate == FaultPlan::PutFate::kLoseAck && broker_ != nullptr) {
    if (ack.ok()) {
      co_return Status(StatusCode::kInternal,
                       fmt::format("the broker was to lose the acknowledgement of put {}, but acknowledged offset {}",
                                   produced.ordinal, ack->offset));
    }
    if (ack.status().code() == StatusCode::kPossiblyPersisted) ack = LostAck(produced.ordinal);
    if (ack.status().code() == StatusCode::kNotPersisted) {
      broker_->ForgetLostAck(produced.record.partition, produced.record.key, produced.record.value);
    }
    co_return ack;
  }
  if (!ack.ok()) co_return ack;
  if (produced.fate == FaultPlan::PutFate::kLoseAck) co_return LostAck(produced.ordinal);
  plan_.OnAcked(produced.point);
  co_return ack;
}

}  // namespace durasim
