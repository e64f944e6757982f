// ClientRecordSink: a real LogClient (librdkafka's mock cluster, a real
// broker) as the RecordSink of a SimulatedLogClient. An append is a whole
// put on the real client: produce, flush and the acknowledgement, at the
// simulated instant the model would append; a successful one is reported to
// the harness at once, as the model's log reports its appends. Reads show
// the records the harness corrupted as corrupted (a broker cannot overwrite
// a record in place). Before every call the backend's broker is brought back
// up if the harness took it down.
//
// Deterministic as long as the broker answers every call; a broker that
// does not is an error of the run, named by the real client.
#pragma once

#include <functional>
#include <memory>

#include "model/kafka_log.h"
#include "model/record_sink.h"
#include "store/log_backend.h"
#include "store/log_client.h"

namespace durasim {

class ClientRecordSink : public RecordSink {
 public:
  using OnAppended = std::function<void(const LogRecord&)>;
  // REQUIRES: `backend` and `corrupted` outlive the sink.
  ClientRecordSink(std::unique_ptr<LogClient> client, LogBackend& backend, const CorruptedPositions& corrupted,
                   OnAppended on_appended)
      : client_(std::move(client)), backend_(backend), corrupted_(corrupted), on_appended_(std::move(on_appended)) {}

  int32_t partitions() const override { return client_->partition_count(); }
  Result<RecordPosition> Append(int32_t partition, std::string key, std::string value) override;
  Result<std::vector<PartitionOffsets>> Offsets() override;
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;

  // A put the broker refuses (the reject_put fault, from the broker's own
  // controls): the backend arms the refusal, then the record is produced,
  // flushed and awaited. Errors: kInternal when the backend has no such
  // control; otherwise the real client's answer (kNotPersisted expected).
  Result<RecordPosition> AppendRefused(int32_t partition, std::string key, std::string value);

 private:
  std::unique_ptr<LogClient> client_;
  LogBackend& backend_;
  const CorruptedPositions& corrupted_;
  OnAppended on_appended_;
};

}  // namespace durasim
