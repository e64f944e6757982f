// RdKafkaBackend implementation.
#include "model/backends/rdkafka_backend.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "model/backends/client_record_sink.h"
#include "model/backends/mock_cluster_pool.h"
#include "model/simulated_log_client.h"
#include "store/check.h"
#include "store/format.h"
#include "store/run_sync.h"

namespace durasim {
namespace {

// Topic names unique across runs and processes sharing one broker.
std::string FreshTopicName() {
  static std::atomic<uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return fmt::format("durasim-{}-{}-{}", getpid(), counter.fetch_add(1), now);
}

// A rebuild reads partition after partition, and each read after the first
// waits out the fetch still held for the previous one: a run's rebuilds are
// small, so hold empty fetches briefly.
constexpr std::chrono::milliseconds kRunFetchWaitMax{0};
// How soon a client tries again to reach the mock broker it lost.
constexpr std::chrono::milliseconds kMockReconnectBackoff{1};
// The mock cluster's only broker.
constexpr int32_t kMockBroker = 1;
// A lost acknowledgement on the mock: the producer gives up on a record
// after kLostAckMessageTimeout, long before the mock answers.
constexpr std::chrono::milliseconds kLostAckMessageTimeout{500};
constexpr std::chrono::milliseconds kLostAckDelay{5000};

}  // namespace

Result<std::unique_ptr<RdKafkaBackend>> RdKafkaBackend::StartMock(const Harness& harness) {
  const int32_t partitions = std::max(harness.config.partitions, harness.partitions_max);
  // A cluster an earlier run of this thread left pristine, or a new one
  // (mock_cluster_pool.h); the run's topic is a fresh one either way.
  Result<PooledMockCluster> cluster = TakeMockCluster();
  if (!cluster.ok()) {
    return Status(StatusCode::kUnavailable, "librdkafka's mock cluster did not start: " + cluster.status().ToString());
  }
  std::unique_ptr<RdKafkaBackend> backend(new RdKafkaBackend(harness));
  backend->mock_runs_ = cluster->runs;
  backend->mock_ = std::move(cluster->cluster);
  backend->config_.bootstrap_servers = backend->mock_->bootstrap_servers();
  backend->config_.fetch_wait_max = kRunFetchWaitMax;
  // The mock broker is down only while the harness holds it down (the
  // outage's length is simulated): clients come back to it at once.
  backend->config_.reconnect_backoff = kMockReconnectBackoff;
  backend->config_.reconnect_backoff_max = kMockReconnectBackoff;
  backend->config_.topic = FreshTopicName();
  backend->config_.expected_partitions = partitions;
  if (partitions > harness.config.partitions) backend->config_.partitions_visible = harness.config.partitions;
  if (Status created = backend->mock_->CreateTopic(backend->config_.topic, partitions); !created.ok()) {
    return Status(StatusCode::kUnavailable, "the mock cluster did not create the run's topic: " + created.ToString());
  }
  backend->topic_name_ = backend->config_.topic;
  return backend;
}

RdKafkaBackend::~RdKafkaBackend() {
  harness_client_.reset();  // the last client of the cluster
  // Only a cluster that served a whole run without failing the harness goes
  // back for the thread's next run: one that did not answer in time, or on
  // which the run's topic was not made, is not handed to a healthy run.
  if (mock_ && infra_.ok() && !topic_name_.empty()) ReturnMockCluster(PooledMockCluster{std::move(mock_), mock_runs_});
}

Result<std::unique_ptr<RdKafkaBackend>> RdKafkaBackend::OnBroker(const std::string& bootstrap_servers,
                                                                 const Harness& harness) {
  if (bootstrap_servers.empty()) {
    return Status(StatusCode::kInvalidArgument, "backend kafka needs --bootstrap-servers HOST:PORT");
  }
  const int32_t partitions = harness.config.partitions;
  std::unique_ptr<RdKafkaBackend> backend(new RdKafkaBackend(harness));
  backend->config_.bootstrap_servers = bootstrap_servers;
  backend->config_.fetch_wait_max = kRunFetchWaitMax;
  backend->config_.topic = harness.topic_name.empty() ? FreshTopicName() : harness.topic_name;
  backend->config_.expected_partitions = partitions;
  backend->config_.create_topic = true;
  // A kept topic's name is the user's: never another run's records.
  backend->config_.require_new_topic = true;
  // DeleteRecords (delete_records) runs for real there: see RdKafkaConfig.
  backend->config_.deletable = true;
  // Creating the topic is the first connect; later connects find it.
  Result<std::unique_ptr<RdKafkaLogClient>> first = RdKafkaLogClient::Connect(backend->config_);
  if (!first.ok()) return first.status();
  backend->config_.create_topic = false;
  backend->config_.require_new_topic = false;
  backend->topic_name_ = backend->config_.topic;
  // It is the harness's client until something makes it drop it.
  backend->harness_client_ = std::move(first).value();
  return backend;
}

Status RdKafkaBackend::Note(Status status, const std::string& during, bool write) {
  if (status.ok() || !infra_.ok()) return status;
  const StatusCode code = status.code();
  const bool infra = code == StatusCode::kUnavailable || code == StatusCode::kNotFound ||
                     (write && (code == StatusCode::kNotPersisted || code == StatusCode::kPossiblyPersisted));
  if (infra) {
    infra_ = Status(code, fmt::format("{} at {} failed {}: {}", mock_ ? "librdkafka's mock cluster" : "the broker",
                                      config_.bootstrap_servers, during, status.ToString()));
  }
  return status;
}

Result<std::unique_ptr<LogClient>> RdKafkaBackend::ConnectClient() {
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  Result<std::unique_ptr<RdKafkaLogClient>> client = Note(RdKafkaLogClient::Connect(config_), "a client's connect");
  if (!client.ok()) return client.status();
  return std::unique_ptr<LogClient>(std::move(client).value());
}

Result<RdKafkaLogClient*> RdKafkaBackend::HarnessClient() {
  if (Status up = EnsureBrokerUp(); !up.ok()) {
    harness_client_.reset();
    return up;
  }
  if (!harness_client_) {
    Result<std::unique_ptr<RdKafkaLogClient>> client =
        Note(RdKafkaLogClient::Connect(config_), "the connect of the harness's client of the log");
    if (!client.ok()) return client.status();
    harness_client_ = std::move(client).value();
  }
  return harness_client_.get();
}

Result<BackendConnection> RdKafkaBackend::Connect(Scheduler& scheduler, AppendHandler on_append, int clients) {
  DURASIM_CHECK_MSG(!appends_.listening(), "a second incarnation connected before the first disconnected");
  DURASIM_CHECK_GE(clients, 1);
  // Each subtask has its own librdkafka producer and consumer.
  std::vector<std::unique_ptr<LogClient>> connected;
  for (int i = 0; i < clients; ++i) {
    Result<std::unique_ptr<LogClient>> client = ConnectClient();
    if (!client.ok()) return client.status();
    connected.push_back(std::move(client).value());
  }
  Listen(std::move(on_append));
  BackendConnection connection;
  for (std::unique_ptr<LogClient>& client : connected) {
    auto sink =
        std::make_unique<ClientRecordSink>(std::move(client), *this, harness_.corrupted, harness_.lifecycle);
    BrokerWriteFaults* write_faults = has_write_fault_controls() ? sink.get() : nullptr;
    connection.clients.push_back(BackendClient{
        std::make_unique<SimulatedLogClient>(scheduler, harness_.outage, harness_.config, std::move(sink)),
        write_faults});
  }
  return connection;
}

void RdKafkaBackend::Report(const LogRecord& record, AppendSeen seen) {
  appends_.Report(record, seen);
}

Status RdKafkaBackend::DiscoverAppends() {
  DURASIM_CHECK(appends_.listening());
  Result<std::vector<std::vector<LogRecord>>> unreported = ReadLog(&appends_);
  if (!unreported.ok()) return unreported.status();
  appends_.Discover(*unreported);
  return Status::Ok();
}

Status RdKafkaBackend::TakeBrokerDown() {
  if (!mock_ || broker_down_) return Status::Ok();
  // The harness's client would come back to a broker it lost: the next use
  // connects a fresh one, as every other client does.
  harness_client_.reset();
  Status down = mock_->BrokerDown(kMockBroker);
  if (!down.ok()) {
    return Note(Status(StatusCode::kUnavailable, "cannot take the mock broker down: " + down.message()),
                "to take its broker down");
  }
  broker_down_ = true;
  return Status::Ok();
}

Status RdKafkaBackend::EnsureBrokerUp() {
  if (!infra_.ok()) {
    return Status(infra_.code(), "the broker is not asked again after the run's infrastructure failure: " +
                                     infra_.message());
  }
  if (!broker_down_) return Status::Ok();
  Status up = mock_->BrokerUp(kMockBroker);
  if (!up.ok()) {
    return Note(Status(StatusCode::kUnavailable, "cannot bring the mock broker back up: " + up.message()),
                "to bring its broker back up");
  }
  broker_down_ = false;
  return Status::Ok();
}

Status RdKafkaBackend::RefuseNextProduce() {
  DURASIM_CHECK(has_write_fault_controls());
  Status pushed = mock_->PushProduceAnswer(kMockBroker, RD_KAFKA_RESP_ERR_INVALID_RECORD, std::chrono::milliseconds(0));
  if (!pushed.ok()) return Note(Status(StatusCode::kUnavailable, pushed.message()), "to arm a refused write");
  return pushed;
}

Result<RecordPosition> RdKafkaBackend::AppendLosingAck(int32_t partition, std::string key, std::string value) {
  DURASIM_CHECK(has_write_fault_controls());
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  RdKafkaConfig lossy = config_;
  lossy.message_timeout = kLostAckMessageTimeout;
  Result<std::unique_ptr<RdKafkaLogClient>> client =
      Note(RdKafkaLogClient::Connect(lossy), "the connect of a producer whose acknowledgement it was to lose");
  if (!client.ok()) return client.status();
  Result<std::vector<PartitionOffsets>> before =
      Note((*client)->Offsets(), "the offsets query before a put whose acknowledgement it was to lose");
  if (!before.ok()) return before.status();
  if (partition < 0 || static_cast<size_t>(partition) >= before->size()) {
    return Status(StatusCode::kInvalidArgument, fmt::format("lose_ack: no partition {}", partition));
  }
  if (Status pushed = mock_->PushProduceAnswer(kMockBroker, RD_KAFKA_RESP_ERR_NO_ERROR, kLostAckDelay); !pushed.ok()) {
    return Note(Status(StatusCode::kUnavailable, pushed.message()), "to arm a lost acknowledgement");
  }
  const ProduceTicket ticket = (*client)->Produce(partition, std::move(key), std::move(value));
  // The mock appends the record when the request arrives and holds the
  // answer. Once the record is in the log the producer gives up on the
  // answer (librdkafka reports the record in flight possibly persisted)
  // instead of waiting for its message timeout, which librdkafka notices
  // only at its once-a-second timeout scan. If the record never shows, the
  // timeout reports it as before.
  const auto deadline = std::chrono::steady_clock::now() + kLostAckMessageTimeout;
  const int64_t end_before = (*before)[static_cast<size_t>(partition)].end;
  while (std::chrono::steady_clock::now() < deadline) {
    Result<std::vector<PartitionOffsets>> now = (*client)->Offsets();
    if (now.ok() && (*now)[static_cast<size_t>(partition)].end > end_before) {
      (*client)->AbandonUnacknowledged();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  (*client)->Flush();
  return RunSync((*client)->AwaitAck(ticket));
}

Result<RecordPosition> RdKafkaBackend::AppendForeign(int32_t partition, std::string key, std::string value) {
  Result<RdKafkaLogClient*> producer = HarnessClient();
  if (!producer.ok()) return producer.status();
  const ProduceTicket ticket = (*producer)->Produce(partition, std::move(key), std::move(value));
  (*producer)->Flush();
  Result<RecordPosition> ack = KeepHarnessClient(RunSync((*producer)->AwaitAck(ticket)));
  if (ack.ok()) appends_.MarkReported(*ack);
  return ack;
}

Result<std::vector<std::vector<LogRecord>>> RdKafkaBackend::ReadAll() { return ReadLog(nullptr); }

Result<std::vector<std::vector<LogRecord>>> RdKafkaBackend::ReadLog(const AppendReporter* from_unreported) {
  Result<RdKafkaLogClient*> reader = HarnessClient();
  if (!reader.ok()) return reader.status();
  Result<std::vector<PartitionOffsets>> offsets =
      KeepHarnessClient(Note((*reader)->Offsets(), "the harness's query of the log's offsets"));
  if (!offsets.ok()) return offsets.status();
  std::vector<ReadRange> ranges;
  for (int32_t p = 0; p < static_cast<int32_t>(offsets->size()); ++p) {
    const PartitionOffsets range = (*offsets)[static_cast<size_t>(p)];
    // Records the harness deleted (emulated DeleteRecords) are gone for every reader.
    int64_t from = std::max(range.start, std::min(range.end, harness_.lifecycle.start(p)));
    if (from_unreported != nullptr) from = std::min(range.end, from_unreported->FirstUnreported(p, from));
    ranges.push_back(ReadRange{p, from, range.end});
  }
  // Every partition at once.
  Result<std::vector<std::vector<LogRecord>>> all =
      KeepHarnessClient(Note((*reader)->ReadRanges(ranges), "the harness's read of the log"));
  if (!all.ok()) return all.status();
  for (std::vector<LogRecord>& records : *all) {
    // Records the harness compacted away (emulated compaction) too.
    std::erase_if(records, [&](const LogRecord& r) { return harness_.lifecycle.Removed(r.partition, r.offset); });
  }
  return all;
}

Result<Compaction> RdKafkaBackend::Compact(const TombstoneExpired& expired) {
  Result<std::vector<std::vector<LogRecord>>> all = ReadAll();
  if (!all.ok()) return all.status();
  // As the model's log holds them: a corrupted tombstone holds a value, so
  // it is no tombstone any more, and compaction keeps it (seed 32 of the
  // aimed points).
  for (std::vector<LogRecord>& partition : *all) ApplyCorruption(harness_.corrupted, partition);
  return CompactionOf(*all, expired);
}

Status RdKafkaBackend::RecreateTopic() {
  DURASIM_CHECK_MSG(!appends_.listening(), "recreate_topic while an incarnation is connected");
  harness_client_.reset();  // of the old topic
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  RdKafkaConfig fresh = config_;
  if (mock_) {
    // The mock cannot delete a topic: the run moves to a fresh one.
    fresh.topic = FreshTopicName();
    if (Status created = mock_->CreateTopic(fresh.topic, config_.expected_partitions); !created.ok()) {
      return Note(Status(StatusCode::kUnavailable, created.message()), "to create the re-created topic");
    }
  } else {
    // For real: DeleteTopics (waiting until the broker no longer lists the
    // topic), then CreateTopics under the same name.
    {
      Result<std::unique_ptr<RdKafkaLogClient>> admin = Note(RdKafkaLogClient::Connect(config_), "an admin client's connect");
      if (!admin.ok()) return admin.status();
      if (Status deleted = Note((*admin)->DeleteTopic(), "DeleteTopics (recreate_topic)"); !deleted.ok()) return deleted;
    }
    fresh.create_topic = true;
    Result<std::unique_ptr<RdKafkaLogClient>> first =
        Note(RdKafkaLogClient::Connect(fresh), "CreateTopics (recreate_topic)");
    if (!first.ok()) return first.status();
    fresh.create_topic = false;
  }
  config_ = fresh;
  appends_.Forget();  // offsets start over
  return Status::Ok();
}

Status RdKafkaBackend::AddPartitions(int32_t partitions) {
  harness_client_.reset();  // it sees the partitions it connected with
  if (mock_) {
    DURASIM_CHECK_GT(partitions, config_.partitions_visible);
    DURASIM_CHECK_LE(partitions, config_.expected_partitions);  // the mock's topic has partitions_max
    config_.partitions_visible = partitions == config_.expected_partitions ? 0 : partitions;
    return Status::Ok();
  }
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  Result<std::unique_ptr<RdKafkaLogClient>> admin = Note(RdKafkaLogClient::Connect(config_), "an admin client's connect");
  if (!admin.ok()) return admin.status();
  if (Status grown = Note((*admin)->AddPartitions(partitions), "CreatePartitions (add_partitions)"); !grown.ok()) {
    return grown;
  }
  // Later clients must find them all: just after CreatePartitions the
  // broker's metadata may still show fewer (a count mismatch), so ask again
  // within the deadline.
  config_.expected_partitions = partitions;
  const auto deadline = std::chrono::steady_clock::now() + config_.deadline;
  while (true) {
    Result<std::unique_ptr<RdKafkaLogClient>> check = RdKafkaLogClient::Connect(config_);
    if (check.ok()) return Status::Ok();
    if (check.status().code() != StatusCode::kInvalidArgument || std::chrono::steady_clock::now() >= deadline) {
      return Note(check.status(), "a client's connect after CreatePartitions");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

Result<int64_t> RdKafkaBackend::DeleteRecords(int32_t partition, int64_t before_offset) {
  Result<RdKafkaLogClient*> reader = HarnessClient();
  if (!reader.ok()) return reader.status();
  Result<std::vector<PartitionOffsets>> offsets =
      KeepHarnessClient(Note((*reader)->Offsets(), "the offsets query before DeleteRecords"));
  if (!offsets.ok()) return offsets.status();
  if (partition < 0 || static_cast<size_t>(partition) >= offsets->size()) {
    return Status(StatusCode::kInvalidArgument, fmt::format("delete_records: no partition {}", partition));
  }
  const PartitionOffsets range = (*offsets)[static_cast<size_t>(partition)];
  const int64_t start = std::max(harness_.lifecycle.start(partition), std::min(before_offset, range.end));
  // On a real broker the records go for real (the mock has no DeleteRecords
  // handler: there the harness hides them, docs/backends.md).
  if (!mock_ && start > range.start) {
    if (Status deleted = Note((*reader)->DeleteRecords(partition, start), "DeleteRecords (delete_records)");
        !deleted.ok()) {
      harness_client_.reset();
      return deleted;
    }
  }
  return start;
}

}  // namespace durasim
