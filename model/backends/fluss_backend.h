// FlussBackend: the log of a run on a real Apache Fluss cluster, through
// durasim's Fluss gateway (ci/fluss/, store/fluss_gateway.h): a fresh log
// table per run, one bucket per partition. Each incarnation gets the
// model's producer timing (SimulatedLogClient) over a ClientRecordSink on a
// new FlussGatewayLogClient, as RdKafkaBackend does on a Kafka broker; a
// crash destroys it, and with it the records it had not sent.
//
// What is real and what is emulated (docs/backends.md, "A real Fluss
// cluster"): appends, reads, offsets, the table's id as its incarnation and
// recreate_topic (dropTable and createTable) are Fluss's own. Fluss has no
// DeleteRecords, no compaction of a log table and no way to add buckets to
// a table: delete_records and compaction are hidden from every reader by
// the harness (LogLifecycle), and a run that adds partitions gets a table
// with all of them from the start, of which clients see the ones added so
// far. The broker's own write faults do not exist: the harness's fault
// wrapper injects them, as on a real Kafka broker.
//
// Outside model/'s determinism contract, like every real backend.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "model/backends/append_reporter.h"
#include "model/backends/log_backend.h"
#include "model/backends/sink_backend.h"
#include "model/kafka_log.h"
#include "model/log_lifecycle.h"
#include "model/scenario.h"
#include "store/fluss_gateway.h"
#include "store/fluss_gateway_log_client.h"

namespace durasim {

class FlussBackend : public LogBackend, public SinkBackend {
 public:
  // What the run's producers share with the model, as RdKafkaBackend::Harness.
  struct Harness {
    const LogConfig& config;
    const KafkaLog& outage;
    const CorruptedPositions& corrupted;
    const LogLifecycle& lifecycle;
    int32_t partitions_max = 0;  // after every add_partitions of the run; 0: the config's
  };

  // A fresh log table of the run's partitions through the gateway at `gateway`.
  static Result<std::unique_ptr<FlussBackend>> OnGateway(const std::string& gateway, const Harness& harness);
  ~FlussBackend() override;

  std::string name() const override;
  Result<BackendConnection> Connect(Scheduler& scheduler, AppendHandler on_append, int clients) override;
  void Disconnect() override { appends_.Stop(); }
  Status DiscoverAppends() override;
  Result<std::vector<std::vector<LogRecord>>> ReadAll() override;
  Result<RecordPosition> AppendForeign(int32_t partition, std::string key, std::string value) override;
  Result<int64_t> DeleteRecords(int32_t partition, int64_t before_offset) override;
  Status RecreateTopic() override;
  Result<Compaction> Compact(const TombstoneExpired& expired) override;
  Status AddPartitions(int32_t partitions) override;
  Status InfrastructureFailure() const override { return infra_; }

  // SinkBackend. The cluster is never taken down: EnsureBrokerUp only
  // refuses after an infrastructure failure.
  Status EnsureBrokerUp() override;
  Status Note(Status status, const std::string& during, bool write) override;
  using SinkBackend::Note;
  void Report(const LogRecord& record, AppendSeen seen) override;
  Status RefuseNextProduce() override;
  Result<RecordPosition> AppendLosingAck(int32_t partition, std::string key, std::string value) override;
  const std::string& topic_name() const override { return config_.table; }

 private:
  explicit FlussBackend(const Harness& harness) : harness_(harness) {}
  // The harness's own client of the table (ReadAll, AppendForeign), never
  // the store's; dropped after a failed call and when the table changes.
  Result<FlussGatewayLogClient*> HarnessClient();
  // The log as every reader sees it (ReadAll); with `from_unreported`, each
  // partition only from the first offset it has not reported (DiscoverAppends).
  Result<std::vector<std::vector<LogRecord>>> ReadLog(const AppendReporter* from_unreported);

  Harness harness_;
  FlussGatewayConfig config_;
  Status infra_;
  AppendReporter appends_;  // the connected incarnation's handler, and what it was told
  std::unique_ptr<FlussGatewayLogClient> harness_client_;
};

}  // namespace durasim
