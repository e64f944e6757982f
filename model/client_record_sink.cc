// ClientRecordSink implementation.
#include "model/client_record_sink.h"

#include <algorithm>

#include "store/run_sync.h"

namespace durasim {

Result<RecordPosition> ClientRecordSink::Append(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  auto lost = std::find_if(lose_ack_of_.begin(), lose_ack_of_.end(), [&](const LogRecord& r) {
    return r.partition == partition && r.key == key && r.value == value;
  });
  if (lost != lose_ack_of_.end()) {
    lose_ack_of_.erase(lost);
    return AppendLosingAck(partition, std::move(key), std::move(value));
  }
  const ProduceTicket ticket = client_->Produce(partition, key, value);
  client_->Flush();
  // The real client's wait completes without suspending (wall-clock bound).
  Result<RecordPosition> ack = RunSync(client_->AwaitAck(ticket));
  if (ack.ok()) on_appended_(LogRecord{ack->partition, ack->offset, std::move(key), std::move(value)});
  return ack;
}

Result<RecordPosition> ClientRecordSink::SendRefused(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  if (!backend_.has_write_fault_controls()) {
    return Status(StatusCode::kInternal, "backend " + backend_.name() + " cannot refuse a produce");
  }
  backend_.RefuseNextProduce();
  const ProduceTicket ticket = client_->Produce(partition, std::move(key), std::move(value));
  client_->Flush();
  return RunSync(client_->AwaitAck(ticket));
}

Result<RecordPosition> ClientRecordSink::AppendLosingAck(int32_t partition, std::string key, std::string value) {
  Result<RecordPosition> answer = backend_.AppendLosingAck(partition, key, value);
  if (answer.ok()) {
    // Not lost after all: the record is where the broker says.
    on_appended_(LogRecord{answer->partition, answer->offset, std::move(key), std::move(value)});
    return answer;
  }
  // Nothing else writes meanwhile, so a persisted record is the last one of
  // its partition.
  Result<std::vector<PartitionOffsets>> offsets = client_->Offsets();
  if (!offsets.ok()) return answer;
  const int64_t end = (*offsets)[static_cast<size_t>(partition)].end;
  if (end == 0) return answer;
  Result<std::vector<LogRecord>> last = client_->Read(partition, end - 1, end);
  if (last.ok() && last->size() == 1 && (*last)[0].key == key && (*last)[0].value == value) {
    on_appended_((*last)[0]);
  }
  return answer;
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
