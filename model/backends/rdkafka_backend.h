// RdKafkaBackend: the log of a run on librdkafka's embedded mock cluster
// (in process, its own handle, so the data outlives every client) or on a
// real broker (a fresh compacted topic per run). Each incarnation gets the
// model's producer timing (SimulatedLogClient) over a ClientRecordSink on a
// new RdKafkaLogClient; a crash destroys it without flushing. The backend
// reports each record to the harness once: when the sink appends it, or
// when DiscoverAppends finds it in the log.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <utility>

#include "model/backends/backend_kind.h"
#include "model/backends/append_reporter.h"
#include "model/backends/log_backend.h"
#include "model/backends/sink_backend.h"
#include "model/kafka_log.h"
#include "model/log_lifecycle.h"
#include "model/scenario.h"
#include "store/kafka_mock_cluster.h"
#include "store/rdkafka_log_client.h"

namespace durasim {

class RdKafkaBackend : public LogBackend, public SinkBackend {
 public:
  // What a run's producers share with the model: the scenario's log
  // configuration, the outage window (kept in the model's log) and the
  // records the harness corrupted. REQUIRES: all three outlive the backend.
  struct Harness {
    const LogConfig& config;
    const KafkaLog& outage;
    const CorruptedPositions& corrupted;
    const LogLifecycle& lifecycle;  // records deleted: hidden from every reader
    // The partitions after every add_partitions of the run (0: the
    // config's): the mock's topics are created with them, and clients see
    // the ones added so far (docs/backends.md).
    int32_t partitions_max = 0;
    // On a broker: the run's topic name; "" for a fresh one.
    std::string topic_name = {};
  };

  // A mock cluster with one broker and a fresh topic of the scenario's partitions.
  // The cluster is this thread's kept one when an earlier run left it
  // pristine (mock_cluster_pool.h); the destructor gives it back.
  static Result<std::unique_ptr<RdKafkaBackend>> StartMock(const Harness& harness);
  // A fresh topic of the scenario's partitions on the broker at `bootstrap_servers`.
  static Result<std::unique_ptr<RdKafkaBackend>> OnBroker(const std::string& bootstrap_servers, const Harness& harness);

  ~RdKafkaBackend() override;
  RdKafkaBackend(const RdKafkaBackend&) = delete;
  RdKafkaBackend& operator=(const RdKafkaBackend&) = delete;

  std::string name() const override { return NameOf(mock_ ? BackendKind::kMock : BackendKind::kKafka); }
  Result<BackendConnection> Connect(Scheduler& scheduler, AppendHandler on_append, int clients) override;
  // A producer of its own writes it, flushed and acknowledged; the record
  // counts as reported, so DiscoverAppends never hands it to the run.
  Result<RecordPosition> AppendForeign(int32_t partition, std::string key, std::string value) override;
  void Disconnect() override { appends_.Stop(); }
  Status DiscoverAppends() override;
  Result<std::vector<std::vector<LogRecord>>> ReadAll() override;
  // Emulated (docs/backends.md): the records stay on the broker and the
  // harness hides those below the start it notes in LogLifecycle.
  Result<int64_t> DeleteRecords(int32_t partition, int64_t before_offset) override;
  // Emulated (docs/backends.md): the run moves to a fresh topic, whose
  // offsets start at 0 and whose incarnation is its own; clients see it
  // under the first topic's name (topic_name()).
  Status RecreateTopic() override;
  // Emulated: the positions compaction would remove from the log as every
  // reader sees it (ReadAll).
  Result<Compaction> Compact(const TombstoneExpired& expired) override;
  // Real on a broker (the admin API's CreatePartitions); emulated on the
  // mock, which cannot add partitions: its topics have partitions_max from
  // the start and clients see the ones added so far (partitions_visible).
  Status AddPartitions(int32_t partitions) override;
  // The name the run's topic goes by, whichever topic holds it now.
  const std::string& topic_name() const override { return topic_name_; }
  // On the mock cluster, its only broker; a real broker stays up.
  Status TakeBrokerDown() override;

  // A bare real client on the backend's topic (the sink's, and tests').
  Result<std::unique_ptr<LogClient>> ConnectClient();
  // Brings a broker taken down back up; a no-op when it is up. After an
  // infrastructure failure it fails at once with it: the broker is not
  // asked again, so a run on a broker that is gone ends within one deadline.
  Status EnsureBrokerUp() override;

  // The first infrastructure failure of the run (docs/backends.md,
  // "Infrastructure failures"); ok while there was none.
  Status InfrastructureFailure() const override { return infra_; }
  // Passes `status` on. When it is a failure of the broker or of the way to
  // it (kUnavailable, kNotFound: the broker not answering, a refused
  // connection, a timeout, the run's topic gone, an admin call refused)
  // rather than an answer about the data the store asked for, it becomes the
  // run's infrastructure failure unless one was noted before; `during` names
  // the call. `write`: an ordinary append, which a healthy broker always
  // persists (the faults the harness injects never reach the broker as
  // such), so a record not persisted, or possibly persisted, is the
  // broker's failure too. An invalid argument or an invalid range (the
  // store's own doing) never is.
  Status Note(Status status, const std::string& during, bool write) override;
  using SinkBackend::Note;  // without `write`, and on a Result
  // From now on, records are reported to `on_append` (Connect does this).
  void Listen(AppendHandler on_append) { appends_.Listen(std::move(on_append)); }
  // Reports `record` to the listening incarnation unless it was reported.
  void Report(const LogRecord& record, AppendSeen seen) override;
  // Whether the broker itself can refuse a write and lose the
  // acknowledgement of a persisted one (the mock cluster); on a real broker
  // the harness's fault wrapper injects both.
  bool has_write_fault_controls() const { return mock_ != nullptr; }
  // Makes the broker refuse the next produce request with INVALID_RECORD,
  // which librdkafka does not retry. REQUIRES: has_write_fault_controls().
  Status RefuseNextProduce() override;
  // Writes one record whose acknowledgement the broker loses: a short-lived
  // producer (message timeout 500 ms) sends it, the mock appends it and
  // answers 5 s late, and librdkafka reports it possibly persisted within
  // about a second (its timeout scan). Returns that answer.
  // REQUIRES: has_write_fault_controls().
  Result<RecordPosition> AppendLosingAck(int32_t partition, std::string key, std::string value) override;

  const RdKafkaConfig& config() const { return config_; }

 private:
  explicit RdKafkaBackend(const Harness& harness) : harness_(harness) {}

  // The harness's own client of the log (ReadAll, and so DiscoverAppends,
  // Compact and the final comparison; DeleteRecords; AppendForeign): one
  // for the run, connected on first use, never the store's. Dropped when
  // the broker goes down, the topic is re-created or grows, and after any
  // failed call, so that the next use connects afresh.
  Result<RdKafkaLogClient*> HarnessClient();
  // The log as every reader sees it (ReadAll); with `from_unreported`, each
  // partition only from the first offset it has not reported (DiscoverAppends).
  Result<std::vector<std::vector<LogRecord>>> ReadLog(const AppendReporter* from_unreported);
  template <typename T>
  Result<T> KeepHarnessClient(Result<T> result) {
    if (!result.ok()) harness_client_.reset();
    return result;
  }

  Harness harness_;
  std::unique_ptr<KafkaMockCluster> mock_;
  int mock_runs_ = 0;  // the runs mock_ has served (mock_cluster_pool.h)
  RdKafkaConfig config_;
  bool broker_down_ = false;
  Status infra_;  // the first infrastructure failure (Note)
  std::string topic_name_;  // the first topic's: every incarnation's name
  AppendReporter appends_;  // the connected incarnation's handler, and what it was told
  std::unique_ptr<RdKafkaLogClient> harness_client_;  // HarnessClient()
};

}  // namespace durasim
