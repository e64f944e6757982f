// FlussBackend implementation.
#include "model/backends/fluss_backend.h"

#include <unistd.h>

#include <atomic>
#include <chrono>

#include "model/backends/backend_kind.h"
#include "model/backends/client_record_sink.h"
#include "model/simulated_log_client.h"
#include "store/check.h"
#include "store/format.h"
#include "store/run_sync.h"

namespace durasim {
namespace {

// Table names unique across runs and processes sharing one cluster. Fluss
// table names allow letters, digits and _ (no -).
std::string FreshTableName() {
  static std::atomic<uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return fmt::format("durasim_{}_{}_{}", getpid(), counter.fetch_add(1), now);
}

}  // namespace

Result<std::unique_ptr<FlussBackend>> FlussBackend::OnGateway(const std::string& gateway, const Harness& harness) {
  if (gateway.empty()) {
    return Status(StatusCode::kInvalidArgument, "backend fluss needs --bootstrap-servers HOST:PORT (the Fluss gateway)");
  }
  std::unique_ptr<FlussBackend> backend(new FlussBackend(harness));
  backend->config_.gateway = gateway;
  backend->config_.table = FreshTableName();
  const int32_t partitions = std::max(harness.config.partitions, harness.partitions_max);
  if (partitions > harness.config.partitions) backend->config_.buckets_visible = harness.config.partitions;
  Result<std::unique_ptr<FlussGateway>> admin = FlussGateway::Connect(gateway, backend->config_.deadline);
  if (!admin.ok()) return admin.status();
  if (Result<int64_t> created = (*admin)->CreateTable(backend->config_.table, partitions); !created.ok()) {
    return Status(created.status().code(),
                  fmt::format("creating the run's Fluss table {}: {}", backend->config_.table, created.status().message()));
  }
  return backend;
}

FlussBackend::~FlussBackend() {
  // The run's table goes with the run; a failure to drop it leaves a table
  // behind (and the gateway's scanners of it open), which is no reason to
  // fail the run, but is said.
  harness_client_.reset();
  Result<std::unique_ptr<FlussGateway>> admin = FlussGateway::Connect(config_.gateway, config_.deadline);
  const Status dropped = admin.ok() ? (*admin)->DropTable(config_.table) : admin.status();
  if (!dropped.ok()) {
    fmt::print(stderr, "durasim: the run's Fluss table {} was not dropped: {}\n", config_.table, dropped.ToString());
  }
}

std::string FlussBackend::name() const { return NameOf(BackendKind::kFluss); }

Status FlussBackend::Note(Status status, const std::string& during, bool write) {
  if (status.ok() || !infra_.ok()) return status;
  const StatusCode code = status.code();
  // kInternal is not the cluster's failure but the gateway's (a count of
  // offsets that does not hold, an answer that does not parse): an error of
  // the run, never a tolerated infrastructure failure.
  const bool infra = code == StatusCode::kUnavailable || code == StatusCode::kNotFound ||
                     (write && (code == StatusCode::kNotPersisted || code == StatusCode::kPossiblyPersisted));
  if (infra) {
    infra_ = Status(code, fmt::format("the Fluss cluster behind the gateway at {} failed {}: {}", config_.gateway,
                                      during, status.ToString()));
  }
  return status;
}

Status FlussBackend::EnsureBrokerUp() {
  if (infra_.ok()) return Status::Ok();
  return Status(infra_.code(),
                "the Fluss cluster is not asked again after the run's infrastructure failure: " + infra_.message());
}

Result<FlussGatewayLogClient*> FlussBackend::HarnessClient() {
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  if (!harness_client_) {
    Result<std::unique_ptr<FlussGatewayLogClient>> client =
        Note(FlussGatewayLogClient::Connect(config_), "the connect of the harness's client of the table");
    if (!client.ok()) return client.status();
    harness_client_ = std::move(client).value();
  }
  return harness_client_.get();
}

Result<BackendConnection> FlussBackend::Connect(Scheduler& scheduler, AppendHandler on_append, int clients) {
  DURASIM_CHECK_MSG(!appends_.listening(), "a second incarnation connected before the first disconnected");
  DURASIM_CHECK_GE(clients, 1);
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  std::vector<std::unique_ptr<LogClient>> connected;
  for (int i = 0; i < clients; ++i) {
    Result<std::unique_ptr<FlussGatewayLogClient>> client =
        Note(FlussGatewayLogClient::Connect(config_), "a client's connect");
    if (!client.ok()) return client.status();
    connected.push_back(std::move(client).value());
  }
  appends_.Listen(std::move(on_append));
  BackendConnection connection;
  for (std::unique_ptr<LogClient>& client : connected) {
    auto sink = std::make_unique<ClientRecordSink>(std::move(client), *this, harness_.corrupted, harness_.lifecycle);
    connection.clients.push_back(BackendClient{
        std::make_unique<SimulatedLogClient>(scheduler, harness_.outage, harness_.config, std::move(sink)), nullptr});
  }
  return connection;
}

void FlussBackend::Report(const LogRecord& record, AppendSeen seen) {
  appends_.Report(record, seen);
}

Status FlussBackend::DiscoverAppends() {
  DURASIM_CHECK(appends_.listening());
  Result<std::vector<std::vector<LogRecord>>> unreported = ReadLog(&appends_);
  if (!unreported.ok()) return unreported.status();
  appends_.Discover(*unreported);
  return Status::Ok();
}

Result<std::vector<std::vector<LogRecord>>> FlussBackend::ReadAll() { return ReadLog(nullptr); }

Result<std::vector<std::vector<LogRecord>>> FlussBackend::ReadLog(const AppendReporter* from_unreported) {
  Result<FlussGatewayLogClient*> reader = HarnessClient();
  if (!reader.ok()) return reader.status();
  auto failed = [&](Status status, const std::string& during) {
    harness_client_.reset();
    return Note(std::move(status), during);
  };
  Result<std::vector<PartitionOffsets>> offsets = (*reader)->Offsets();
  if (!offsets.ok()) return failed(offsets.status(), "the harness's query of the table's offsets");
  std::vector<std::vector<LogRecord>> all;
  for (int32_t b = 0; b < static_cast<int32_t>(offsets->size()); ++b) {
    const PartitionOffsets range = (*offsets)[static_cast<size_t>(b)];
    // Records the harness deleted (emulated DeleteRecords) are gone for every reader.
    int64_t from = std::max(range.start, std::min(range.end, harness_.lifecycle.start(b)));
    if (from_unreported != nullptr) from = std::min(range.end, from_unreported->FirstUnreported(b, from));
    Result<std::vector<LogRecord>> records = (*reader)->Read(b, from, range.end);
    if (!records.ok()) return failed(records.status(), "the harness's read of the table");
    // Records the harness compacted away (emulated compaction) too.
    std::erase_if(*records, [&](const LogRecord& r) { return harness_.lifecycle.Removed(r.partition, r.offset); });
    all.push_back(std::move(records).value());
  }
  return all;
}

Result<RecordPosition> FlussBackend::AppendForeign(int32_t partition, std::string key, std::string value) {
  Result<FlussGatewayLogClient*> producer = HarnessClient();
  if (!producer.ok()) return producer.status();
  const ProduceTicket ticket = (*producer)->Produce(partition, std::move(key), std::move(value));
  (*producer)->Flush();
  Result<RecordPosition> ack = Note(RunSync((*producer)->AwaitAck(ticket)), "a foreign append");
  if (!ack.ok()) {
    harness_client_.reset();
    return ack;
  }
  appends_.MarkReported(*ack);
  return ack;
}

Result<int64_t> FlussBackend::DeleteRecords(int32_t partition, int64_t before_offset) {
  // Emulated: Fluss has no DeleteRecords; the harness hides the records
  // below the start it returns (the caller notes it in LogLifecycle).
  Result<FlussGatewayLogClient*> reader = HarnessClient();
  if (!reader.ok()) return reader.status();
  Result<std::vector<PartitionOffsets>> offsets = (*reader)->Offsets();
  if (!offsets.ok()) {
    harness_client_.reset();
    return Note(offsets.status(), "the offsets query before an emulated DeleteRecords");
  }
  if (partition < 0 || static_cast<size_t>(partition) >= offsets->size()) {
    return Status(StatusCode::kInvalidArgument, fmt::format("delete_records: no partition {}", partition));
  }
  const PartitionOffsets range = (*offsets)[static_cast<size_t>(partition)];
  return std::max(harness_.lifecycle.start(partition), std::min(before_offset, range.end));
}

Status FlussBackend::RecreateTopic() {
  DURASIM_CHECK_MSG(!appends_.listening(), "recreate_topic while an incarnation is connected");
  harness_client_.reset();
  if (Status up = EnsureBrokerUp(); !up.ok()) return up;
  // For real: the table is dropped and created again under its name; its
  // new table id is its new incarnation.
  Result<std::unique_ptr<FlussGateway>> admin = FlussGateway::Connect(config_.gateway, config_.deadline);
  if (!admin.ok()) return Note(admin.status(), "an admin connect (recreate_topic)");
  const int32_t partitions = std::max(harness_.config.partitions, harness_.partitions_max);
  if (Status dropped = Note((*admin)->DropTable(config_.table), "dropTable (recreate_topic)"); !dropped.ok()) {
    return dropped;
  }
  if (Result<int64_t> created = Note((*admin)->CreateTable(config_.table, partitions), "createTable (recreate_topic)");
      !created.ok()) {
    return created.status();
  }
  appends_.Forget();  // offsets start over
  return Status::Ok();
}

Result<Compaction> FlussBackend::Compact(const TombstoneExpired& expired) {
  Result<std::vector<std::vector<LogRecord>>> all = ReadAll();
  if (!all.ok()) return all.status();
  // As the model's log holds them: a corrupted tombstone holds a value, so
  // it is no tombstone any more, and compaction keeps it (as on the Kafka
  // backends, seed 32 of the aimed points; no fluss scenario compacts yet:
  // FitToDesign drops `compact`).
  for (std::vector<LogRecord>& partition : *all) ApplyCorruption(harness_.corrupted, partition);
  return CompactionOf(*all, expired);
}

Status FlussBackend::AddPartitions(int32_t partitions) {
  harness_client_.reset();  // it sees the buckets it connected with
  const int32_t all = std::max(harness_.config.partitions, harness_.partitions_max);
  DURASIM_CHECK_GT(partitions, config_.buckets_visible);
  DURASIM_CHECK_LE(partitions, all);
  config_.buckets_visible = partitions == all ? 0 : partitions;
  return Status::Ok();
}

Status FlussBackend::RefuseNextProduce() {
  return Status(StatusCode::kInternal, "the Fluss backend has no write-fault controls (the fault wrapper injects them)");
}

Result<RecordPosition> FlussBackend::AppendLosingAck(int32_t, std::string, std::string) {
  return Status(StatusCode::kInternal, "the Fluss backend has no write-fault controls (the fault wrapper injects them)");
}

}  // namespace durasim
