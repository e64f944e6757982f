// SimulatedLogClient implementation.
#include "model/simulated_log_client.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "model/sim_time.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

SimulatedLogClient::SimulatedLogClient(Scheduler& scheduler, const KafkaLog& outage, const LogConfig& config,
                                       std::unique_ptr<RecordSink> sink)
    : scheduler_(scheduler), outage_(outage), config_(config), sink_(std::move(sink)) {
  // The references cannot be checked (see the header); the sink can.
  DURASIM_CHECK(sink_ != nullptr);
}

ProduceTicket SimulatedLogClient::Produce(int32_t partition, std::string key, std::string value) {
  // The store picks the partition from the topic's partition count.
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(partition, partition_count());
  const ProduceTicket ticket = next_ticket_++;
  auto [pending, fresh] = pending_.emplace(ticket, Pending{});
  DURASIM_CHECK(fresh);  // tickets are never reused
  pending->second.arrived.emplace(scheduler_);
  buffer_.push_back(Buffered{ticket, partition, std::move(key), std::move(value), scheduler_.now()});
  if (!linger_armed_) {
    linger_armed_ = true;
    scheduler_.After(scheduler_.LatencyMs(config_.linger_ms, config_.linger_ms_max), [this] {
      linger_armed_ = false;
      SendBuffered();
    });
  }
  return ticket;
}

void SimulatedLogClient::Flush() { SendBuffered(); }

void SimulatedLogClient::ArmRetry(SimTime at) {
  if (retry_armed_) return;
  DURASIM_CHECK(at > scheduler_.now());  // the broker is down now: retry later
  retry_armed_ = true;
  scheduler_.After(at - scheduler_.now(), [this] {
    retry_armed_ = false;
    SendBuffered();
  });
}

void SimulatedLogClient::SendBuffered() {
  while (!buffer_.empty() && !scheduler_.stop_requested()) {
    Buffered& next = buffer_.front();
    DURASIM_CHECK(next.produced_at <= scheduler_.now());
    if (!outage_.IsUp(scheduler_.now())) {
      const SimTime give_up = next.produced_at + Ms(config_.delivery_timeout_ms);
      if (scheduler_.now() < give_up) {
        ArmRetry(std::min(outage_.down_until(), give_up));
        return;
      }
      Deliver(next.ticket, Status(StatusCode::kNotPersisted,
                                  fmt::format("delivery timed out after {} ms: broker unavailable",
                                              config_.delivery_timeout_ms)));
      buffer_.pop_front();
      continue;
    }
    Buffered sent = std::move(next);
    buffer_.pop_front();
    Result<RecordPosition> answer = sink_->Append(sent.partition, std::move(sent.key), std::move(sent.value));
    // A partition acknowledges in send order (Kafka's per-partition
    // ordering): a drawn latency never brings an acknowledgement ahead of an
    // earlier one of its partition, and acknowledgements due at one instant
    // (whose timers a perturbed schedule may fire in any order) leave a
    // per-partition queue in send order: each timer delivers the queue's
    // front. With a fixed latency this is now + it.
    SimTime& last = last_ack_at_[sent.partition];
    last = std::max(scheduler_.now() + scheduler_.LatencyMs(config_.ack_latency_ms, config_.ack_latency_ms_max), last);
    acks_due_[sent.partition].push_back(DueAck{sent.ticket, std::move(answer)});
    scheduler_.After(last - scheduler_.now(), [this, partition = sent.partition] {
      std::deque<DueAck>& due = acks_due_[partition];
      DURASIM_CHECK(!due.empty());  // one timer per queued acknowledgement
      DueAck ack = std::move(due.front());
      due.pop_front();
      Deliver(ack.ticket, std::move(ack.answer));
    });
  }
}

void SimulatedLogClient::Deliver(ProduceTicket ticket, Result<RecordPosition> result) {
  auto it = pending_.find(ticket);
  if (it == pending_.end()) return;  // its waiter was cancelled
  // One answer per produce: sent once, or timed out once.
  DURASIM_CHECK(!it->second.result.has_value());
  it->second.result = std::move(result);
  it->second.arrived->Notify();
}

boost::asio::awaitable<Result<RecordPosition>> SimulatedLogClient::AwaitAck(ProduceTicket ticket) {
  auto it = pending_.find(ticket);
  if (it == pending_.end()) {
    co_return Status(StatusCode::kInternal, fmt::format("no produce with ticket {}", ticket));
  }
  while (!it->second.result.has_value()) {
    auto [error] = co_await it->second.arrived->AsyncWait(boost::asio::as_tuple(boost::asio::use_awaitable));
    it = pending_.find(ticket);
    // Only this wait erases the ticket: it is still pending when it wakes.
    DURASIM_CHECK(it != pending_.end());
    if (error) {
      pending_.erase(it);
      co_return Status(StatusCode::kCancelled,
                       fmt::format("wait for the acknowledgement of produce {} was cancelled", ticket));
    }
  }
  Result<RecordPosition> result = std::move(*it->second.result);
  pending_.erase(it);
  // An acknowledgement names a real position (the store checks the partition).
  if (result.ok()) DURASIM_CHECK_GE(result->offset, 0);
  co_return result;
}

Result<std::vector<PartitionOffsets>> SimulatedLogClient::Offsets() {
  if (!outage_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: offsets");
  return sink_->Offsets();
}

Result<std::vector<LogRecord>> SimulatedLogClient::Read(int32_t partition, int64_t from, int64_t to) {
  if (!outage_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: read");
  if (partition < 0 || partition >= sink_->partitions()) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partition {} does not exist", partition));
  }
  return sink_->Read(partition, from, to);
}

Result<TopicIdentity> SimulatedLogClient::Topic() {
  if (!outage_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: topic metadata");
  return sink_->Topic();
}

Result<FetchResult> SimulatedLogClient::Fetch(int32_t partition, int64_t from, int64_t to) {
  if (!outage_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: fetch");
  if (outage_.FetchesSlow(scheduler_.now())) {
    scheduler_.Block(std::chrono::duration_cast<SimDuration>(kFetchWait));
    return FetchResult{{}, from, kFetchWait};
  }
  Result<std::vector<LogRecord>> records = Read(partition, from, to);
  if (!records.ok()) return records.status();
  return FetchResult{std::move(records).value(), to, std::chrono::milliseconds(0)};
}

}  // namespace durasim
