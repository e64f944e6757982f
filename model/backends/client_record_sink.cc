// ClientRecordSink implementation.
#include "model/backends/client_record_sink.h"

#include <algorithm>

#include "store/format.h"
#include "store/run_sync.h"

namespace durasim {

namespace {
std::vector<LogRecord>::iterator FindRecord(std::vector<LogRecord>& records, int32_t partition, const std::string& key,
                                            const std::string& value) {
  return std::find_if(records.begin(), records.end(), [&](const LogRecord& r) {
    return r.partition == partition && r.key == key && r.value == value;
  });
}
}  // namespace

void ClientRecordSink::ForgetLostAck(int32_t partition, const std::string& key, const std::string& value) {
  auto lost = FindRecord(lose_ack_of_, partition, key, value);
  if (lost != lose_ack_of_.end()) lose_ack_of_.erase(lost);
}

Result<RecordPosition> ClientRecordSink::Append(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  auto lost = FindRecord(lose_ack_of_, partition, key, value);
  if (lost != lose_ack_of_.end()) {
    lose_ack_of_.erase(lost);
    return AppendLosingAck(partition, std::move(key), std::move(value));
  }
  const ProduceTicket ticket = client_->Produce(partition, key, value);
  client_->Flush();
  // The real client's wait completes without suspending (wall-clock bound).
  // An ordinary record the broker does not persist is its failure, not the
  // store's: the harness's faults never reach the broker as such.
  Result<RecordPosition> ack = backend_.Note(RunSync(client_->AwaitAck(ticket)), "a put", /*write=*/true);
  if (ack.ok()) backend_.Report(LogRecord{ack->partition, ack->offset, std::move(key), std::move(value)}, AppendSeen::kAppended);
  return ack;
}

Result<RecordPosition> ClientRecordSink::SendRefused(int32_t partition, std::string key, std::string value) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  if (Status armed = backend_.RefuseNextProduce(); !armed.ok()) return armed;
  const ProduceTicket ticket = client_->Produce(partition, std::move(key), std::move(value));
  client_->Flush();
  Result<RecordPosition> answer = RunSync(client_->AwaitAck(ticket));
  // The refusal is the answer the harness armed (not persisted); an answer
  // that never came is the broker's failure.
  if (answer.status().code() == StatusCode::kPossiblyPersisted) {
    (void)backend_.Note(Status(StatusCode::kUnavailable, answer.status().message()), "a put it was to refuse");
  }
  return backend_.Note(std::move(answer), "a put it was to refuse");
}

Result<RecordPosition> ClientRecordSink::AppendLosingAck(int32_t partition, std::string key, std::string value) {
  Result<RecordPosition> answer =
      backend_.Note(backend_.AppendLosingAck(partition, key, value), "a put whose acknowledgement it was to lose");
  if (answer.ok()) {
    // Not lost after all: the record is where the broker says (and the
    // fault wrapper reports the unexpected acknowledgement).
    backend_.Report(LogRecord{answer->partition, answer->offset, std::move(key), std::move(value)},
                    AppendSeen::kAppended);
    return answer;
  }
  if (answer.status().code() != StatusCode::kPossiblyPersisted) {
    return Status(StatusCode::kInternal, "the broker was to persist a record and lose its acknowledgement, but "
                                         "answered " + answer.status().ToString());
  }
  // Nothing else writes meanwhile, so the persisted record is the last one
  // of its partition.
  const std::string where = "the record whose acknowledgement the broker lost";
  Result<std::vector<PartitionOffsets>> offsets = backend_.Note(client_->Offsets(), "the offsets query after a lost acknowledgement");
  if (!offsets.ok()) return Status(StatusCode::kInternal, where + ": " + offsets.status().ToString());
  if (partition < 0 || static_cast<size_t>(partition) >= offsets->size()) {
    return Status(StatusCode::kInternal, fmt::format("{}: no partition {}", where, partition));
  }
  const int64_t end = (*offsets)[static_cast<size_t>(partition)].end;
  Result<std::vector<LogRecord>> last =
      end > 0 ? backend_.Note(client_->Read(partition, end - 1, end), "the read after a lost acknowledgement")
              : Result<std::vector<LogRecord>>(std::vector<LogRecord>{});
  if (!last.ok()) return Status(StatusCode::kInternal, where + ": " + last.status().ToString());
  if (last->size() != 1 || (*last)[0].key != key || (*last)[0].value != value) {
    return Status(StatusCode::kInternal,
                  fmt::format("{} is not at the end of partition {} (end offset {})", where, partition, end));
  }
  backend_.Report((*last)[0], AppendSeen::kAppended);
  return answer;
}

Result<std::vector<PartitionOffsets>> ClientRecordSink::Offsets() {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  Result<std::vector<PartitionOffsets>> offsets = backend_.Note(client_->Offsets(), "a query of the log's offsets");
  if (!offsets.ok()) return offsets;
  // Emulated DeleteRecords: the log starts where the harness says.
  for (size_t p = 0; p < offsets->size() && p < lifecycle_.starts().size(); ++p) {
    PartitionOffsets& range = (*offsets)[p];
    range.start = std::max(range.start, std::min(range.end, lifecycle_.starts()[p]));
  }
  return offsets;
}

Result<std::vector<LogRecord>> ClientRecordSink::Read(int32_t partition, int64_t from, int64_t to) {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  if (partition >= 0 && static_cast<size_t>(partition) < lifecycle_.starts().size()) {
    if (Status deleted = CheckNotDeleted(lifecycle_.start(partition), partition, from); !deleted.ok()) return deleted;
  }
  Result<std::vector<LogRecord>> records = backend_.Note(client_->Read(partition, from, to), "a read of the log");
  if (records.ok()) {
    // Emulated compaction: the records the harness compacted away are gone.
    std::erase_if(*records, [&](const LogRecord& r) { return lifecycle_.Removed(r.partition, r.offset); });
    ApplyCorruption(corrupted_, *records);
  }
  return records;
}

void ClientRecordSink::WillRead(const std::vector<ReadRange>& ranges) {
  if (backend_.EnsureBrokerUp().ok()) client_->WillRead(ranges);
}

Result<TopicIdentity> ClientRecordSink::Topic() {
  if (Status up = backend_.EnsureBrokerUp(); !up.ok()) return up;
  Result<TopicIdentity> topic = backend_.Note(client_->Topic(), "the query of the topic's incarnation");
  if (!topic.ok()) return topic;
  // An emulated re-creation is another topic under the run's one name.
  topic->name = backend_.topic_name();
  return topic;
}

}  // namespace durasim
