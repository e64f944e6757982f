// ClientRecordSink: a real LogClient (librdkafka's mock cluster, a real
// broker) as the RecordSink of a SimulatedLogClient. An append is a whole
// put on the real client: produce, flush and the acknowledgement, at the
// simulated instant the model would append; a successful one is reported to
// the harness at once (SinkBackend::Report), as the model's log reports
// its appends. Reads show
// the records the harness corrupted as corrupted (a broker cannot overwrite
// a record in place). Before every call the backend's broker is brought back
// up if the harness took it down.
//
// Outside model/'s determinism contract by nature: it blocks on librdkafka
// in wall-clock time. Its results, and so the trace, are deterministic as
// long as the broker answers every call; a broker that does not is an error
// of the run, named by the real client or by this sink.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/backends/record_sink.h"
#include "model/backends/sink_backend.h"
#include "model/faulty_log_client.h"
#include "model/kafka_log.h"
#include "model/log_lifecycle.h"
#include "store/log_client.h"

namespace durasim {

class ClientRecordSink : public RecordSink, public BrokerWriteFaults {
 public:
  // REQUIRES: `backend` and `corrupted` outlive the sink.
  // REQUIRES: `lifecycle` outlives the sink too.
  ClientRecordSink(std::unique_ptr<LogClient> client, SinkBackend& backend, const CorruptedPositions& corrupted,
                   const LogLifecycle& lifecycle)
      : client_(std::move(client)), backend_(backend), corrupted_(corrupted), lifecycle_(lifecycle) {}

  int32_t partitions() const override { return client_->partition_count(); }
  Result<RecordPosition> Append(int32_t partition, std::string key, std::string value) override;
  Result<std::vector<PartitionOffsets>> Offsets() override;
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) override;
  Result<TopicIdentity> Topic() override;
  // The real client reads every range at once, once the broker is up (as
  // the read after it would bring it up); Read applies the harness's
  // deletions, compaction and corruption to what it read, as to any read.
  void WillRead(const std::vector<ReadRange>& ranges) override;

  // BrokerWriteFaults, from the backend's controls (kInternal where it has
  // none). A refused record is produced, flushed and awaited on this
  // incarnation's client after the backend arms the refusal. A record whose
  // acknowledgement is to be lost is appended by the backend (a producer of
  // its own), then found at the end of its partition and reported as
  // appended, as the model's log reports it.
  Result<RecordPosition> SendRefused(int32_t partition, std::string key, std::string value) override;
  void LoseAckOf(int32_t partition, const std::string& key, const std::string& value) override {
    lose_ack_of_.push_back(LogRecord{partition, -1, key, value});
  }
  void ForgetLostAck(int32_t partition, const std::string& key, const std::string& value) override;

 private:
  Result<RecordPosition> AppendLosingAck(int32_t partition, std::string key, std::string value);

  std::unique_ptr<LogClient> client_;
  SinkBackend& backend_;
  const CorruptedPositions& corrupted_;
  const LogLifecycle& lifecycle_;  // records below a start it notes are deleted (emulated)
  std::vector<LogRecord> lose_ack_of_;  // records whose acknowledgement the broker is to lose
};

}  // namespace durasim
