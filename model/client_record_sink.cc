// ClientRecordSink implementation.
#include "model/client_record_sink.h"

#include "store/run_sync.h"

namespace durasim {

Result<RecordPosition> ClientRecordSink::Append(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  const ProduceTicket ticket = client_->Produce(partition, key, value);
  client_->Flush();
  // The real client's wait completes without suspending (wall-clock bound).
  Result<RecordPosition> ack = RunSync(client_->AwaitAck(ticket));
  if (ack.ok()) on_appended_(LogRecord{ack->partition, ack->offset, std::move(key), std::move(value)});
  return ack;
}

Result<RecordPosition> ClientRecordSink::AppendRefused(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  if (!backend_.can_refuse_produce()) {
    return Status(StatusCode::kInternal, "backend " + backend_.name() + " cannot refuse a produce");
  }
  backend_.RefuseNextProduce();
  const ProduceTicket ticket = client_->Produce(partition, std::move(key), std::move(value));
  client_->Flush();
  return RunSync(client_->AwaitAck(ticket));
}

Result<std::vector<PartitionOffsets>> ClientRecordSink::Offsets() {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  return client_->Offsets();
}

Result<std::vector<LogRecord>> ClientRecordSink::Read(int32_t partition, int64_t from, int64_t to) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  Result<std::vector<LogRecord>> records = client_->Read(partition, from, to);
  if (records.ok()) ApplyCorruption(corrupted_, *records);
  return records;
}

}  // namespace durasim
