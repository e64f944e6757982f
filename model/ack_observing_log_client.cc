// AckObservingLogClient implementation.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#include "model/ack_observing_log_client.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace durasim {

ProduceTicket AckObservingLogClient::Produce(int32_t partition, std::string key, std::string value) {
  const ProduceTicket ticket = inner().Produce(partition, key, value);
  produced_[ticket] = Produced{std::move(key), std::move(value)};
  return ticket;
}

boost::asio::awaitable<Result<RecordPosition>> AckObservingLogClient::AwaitAck(ProduceTicket ticket) {
  Result<RecordPosition> ack = co_await inner().AwaitAck(ticket);
  auto it = produced_.find(ticket);
  Produced produced = it == produced_.end() ? Produced{} : std::move(it->second);
  if (it != produced_.end()) produced_.erase(it);
  if (ack.ok()) {
    on_persisted_(LogRecord{ack->partition, ack->offset, std::move(produced.key), std::move(produced.value)});
  }
  // The acknowledgement takes the model's latency in simulated time.
  auto [error] = co_await scheduler_.AsyncSleep(ack_latency_, boost::asio::as_tuple(boost::asio::use_awaitable));
  if (error) {
    co_return Status(StatusCode::kCancelled, "wait for the acknowledgement was cancelled");
  }
  co_return ack;
}

}  // namespace durasim
