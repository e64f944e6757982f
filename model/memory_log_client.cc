// MemoryLogClient implementation.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#include "model/memory_log_client.h"

#include <fmt/format.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace durasim {

namespace {
SimDuration Ms(int64_t ms) { return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(ms)); }
}  // namespace

MemoryLogClient::MemoryLogClient(Scheduler& scheduler, KafkaLog& log, const LogConfig& config)
    : scheduler_(scheduler), log_(log), config_(config) {}

ProduceTicket MemoryLogClient::Produce(int32_t partition, std::string key, std::string value) {
  const ProduceTicket ticket = next_ticket_++;
  pending_[ticket].arrived = std::make_unique<SimSignal>(scheduler_);
  buffer_.push_back(Buffered{ticket, partition, std::move(key), std::move(value), scheduler_.now()});
  if (!linger_armed_) {
    linger_armed_ = true;
    scheduler_.AsyncSleep(Ms(config_.linger_ms), [this](ErrorCode) {
      linger_armed_ = false;
      SendBuffered();
    });
  }
  return ticket;
}

void MemoryLogClient::Flush() { SendBuffered(); }

void MemoryLogClient::ArmRetry(SimTime at) {
  if (retry_armed_) return;
  retry_armed_ = true;
  scheduler_.AsyncSleep(at - scheduler_.now(), [this](ErrorCode) {
    retry_armed_ = false;
    SendBuffered();
  });
}

void MemoryLogClient::SendBuffered() {
  while (!buffer_.empty() && !scheduler_.stop_requested()) {
    Buffered& next = buffer_.front();
    if (!log_.IsUp(scheduler_.now())) {
      const SimTime give_up = next.produced_at + Ms(config_.delivery_timeout_ms);
      if (scheduler_.now() < give_up) {
        ArmRetry(std::min(log_.down_until(), give_up));
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
    const RecordPosition position = log_.Append(sent.partition, std::move(sent.key), std::move(sent.value));
    scheduler_.AsyncSleep(Ms(config_.ack_latency_ms),
                          [this, ticket = sent.ticket, position](ErrorCode) { Deliver(ticket, position); });
  }
}

void MemoryLogClient::Deliver(ProduceTicket ticket, Result<RecordPosition> result) {
  auto it = pending_.find(ticket);
  if (it == pending_.end()) return;  // its waiter was cancelled
  it->second.result = std::move(result);
  it->second.arrived->Notify();
}

boost::asio::awaitable<Result<RecordPosition>> MemoryLogClient::AwaitAck(ProduceTicket ticket) {
  auto it = pending_.find(ticket);
  if (it == pending_.end()) {
    co_return Status(StatusCode::kInternal, fmt::format("no produce with ticket {}", ticket));
  }
  while (!it->second.result.has_value()) {
    auto [error] = co_await it->second.arrived->AsyncWait(boost::asio::as_tuple(boost::asio::use_awaitable));
    it = pending_.find(ticket);
    if (error) {
      pending_.erase(it);
      co_return Status(StatusCode::kCancelled,
                       fmt::format("wait for the acknowledgement of produce {} was cancelled", ticket));
    }
  }
  Result<RecordPosition> result = std::move(*it->second.result);
  pending_.erase(it);
  co_return result;
}

Result<std::vector<PartitionOffsets>> MemoryLogClient::Offsets() {
  if (!log_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: offsets");
  std::vector<PartitionOffsets> out;
  for (int32_t p = 0; p < log_.partitions(); ++p) out.push_back(log_.Offsets(p));
  return out;
}

Result<std::vector<LogRecord>> MemoryLogClient::Read(int32_t partition, int64_t from, int64_t to) {
  if (!log_.IsUp(scheduler_.now())) return Status(StatusCode::kUnavailable, "broker unavailable: read");
  if (partition < 0 || partition >= log_.partitions()) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partition {} does not exist", partition));
  }
  return log_.Read(partition, from, to);
}

}  // namespace durasim
