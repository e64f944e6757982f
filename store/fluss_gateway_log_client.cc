// FlussGatewayLogClient implementation.
#include "store/fluss_gateway_log_client.h"

#include "store/check.h"
#include "store/format.h"

namespace durasim {

Result<std::unique_ptr<FlussGatewayLogClient>> FlussGatewayLogClient::Connect(const FlussGatewayConfig& config) {
  Result<std::unique_ptr<FlussGateway>> gateway = FlussGateway::Connect(config.gateway, config.deadline);
  if (!gateway.ok()) return gateway.status();
  Result<FlussGateway::TableInfo> info = (*gateway)->Info(config.table);
  if (!info.ok()) return info.status();
  if (config.buckets_visible > info->buckets) {
    return Status(StatusCode::kInvalidArgument, fmt::format("Fluss table {} has {} buckets, fewer than the {} to see",
                                                            config.table, info->buckets, config.buckets_visible));
  }
  const int32_t buckets = config.buckets_visible > 0 ? config.buckets_visible : info->buckets;
  return std::unique_ptr<FlussGatewayLogClient>(
      new FlussGatewayLogClient(config, std::move(gateway).value(), buckets));
}

ProduceTicket FlussGatewayLogClient::Produce(int32_t partition, std::string key, std::string value) {
  const ProduceTicket ticket = next_ticket_++;
  queued_.push_back(Queued{ticket, partition, std::move(key), std::move(value)});
  return ticket;
}

void FlussGatewayLogClient::Flush() {
  std::vector<Queued> sending = std::move(queued_);
  queued_.clear();
  bool failed = false;  // after a failed append the rest are not sent: their order is the log's
  for (Queued& record : sending) {
    if (failed) {
      answered_.emplace(record.ticket, Status(StatusCode::kNotPersisted,
                                              "not sent: an earlier append of the same flush failed"));
      continue;
    }
    Result<RecordPosition> answer = Status(StatusCode::kInvalidArgument,
                                           fmt::format("Fluss table {} has no bucket {} to append to (it shows {})",
                                                       config_.table, record.partition, buckets_));
    if (record.partition >= 0 && record.partition < buckets_) {
      Result<int64_t> offset = gateway_->Append(config_.table, record.partition, record.key, record.value);
      if (offset.ok()) {
        answer = RecordPosition{record.partition, *offset};
      } else if (offset.status().code() == StatusCode::kInvalidArgument) {
        answer = Status(StatusCode::kNotPersisted, offset.status().message());
      } else {
        // The append may have reached the table before the failure.
        answer = Status(StatusCode::kPossiblyPersisted, offset.status().message());
      }
    }
    failed = !answer.ok();
    answered_.emplace(record.ticket, std::move(answer));
  }
}

boost::asio::awaitable<Result<RecordPosition>> FlussGatewayLogClient::AwaitAck(ProduceTicket ticket) {
  if (!answered_.contains(ticket)) Flush();
  auto answer = answered_.find(ticket);
  DURASIM_CHECK_MSG(answer != answered_.end(), "AwaitAck of a ticket this client never gave");
  Result<RecordPosition> result = std::move(answer->second);
  answered_.erase(answer);
  co_return result;
}

Result<std::vector<PartitionOffsets>> FlussGatewayLogClient::Offsets() {
  Result<std::vector<PartitionOffsets>> offsets = gateway_->Offsets(config_.table);
  if (offsets.ok() && static_cast<int32_t>(offsets->size()) > buckets_) offsets->resize(static_cast<size_t>(buckets_));
  return offsets;
}

Result<std::vector<LogRecord>> FlussGatewayLogClient::Read(int32_t partition, int64_t from, int64_t to) {
  if (partition < 0 || partition >= buckets_) {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("Fluss table {} has no bucket {} to read (it shows {})", config_.table, partition, buckets_));
  }
  return gateway_->Read(config_.table, partition, from, to);
}

Result<TopicIdentity> FlussGatewayLogClient::Topic() {
  Result<FlussGateway::TableInfo> info = gateway_->Info(config_.table);
  if (!info.ok()) return info.status();
  return TopicIdentity{config_.table, fmt::format("fluss-table-{}", info->table_id)};
}

}  // namespace durasim
