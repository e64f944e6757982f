// LogBackend: where the Kafka log of one run lives: the in-memory model,
// librdkafka's mock cluster, or a real broker. It outlives every attempt
// (crashes lose clients, never the log) and gives each new incarnation its
// producer: a LogClient in simulated time over this log, with the broker's
// own write-fault controls where it has them. It is also the harness's
// reader of the log (the checkers' ground truth) and its outage control.
//
// Every record appended to the log reaches the harness by one route: the
// AppendHandler given to Connect, called once per record, at the simulated
// instant it is appended (kAppended), or at the start of a later attempt
// for a record whose answer never came (kDiscovered).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/faulty_log_client.h"
#include "model/kafka_log.h"
#include "model/scheduler.h"
#include "store/log_client.h"
#include "store/status.h"

namespace durasim {

enum class AppendSeen {
  kAppended,    // appended by this incarnation's producer, now
  kDiscovered,  // found in the log: an append the harness was not told of
};
// The trace kind of an append seen that way ("log.append", "log.discovered").
const char* AppendSeenTraceKind(AppendSeen seen);

using AppendHandler = std::function<void(const LogRecord&, AppendSeen)>;

// One producer of an incarnation (one per subtask).
struct BackendClient {
  std::unique_ptr<LogClient> client;       // the producer, in simulated time
  BrokerWriteFaults* write_faults = nullptr;  // the broker's own write faults; null: the wrapper injects them
};

// What one incarnation gets from the backend: a producer per subtask.
struct BackendConnection {
  std::vector<BackendClient> clients;
};

class LogBackend {
 public:
  virtual ~LogBackend() = default;

  virtual std::string name() const = 0;
  // The `clients` producers of a new incarnation (one per subtask), each its
  // own client of the log. Every record appended to the log from now until
  // Disconnect is reported to `on_append`, once, whichever producer wrote it.
  // REQUIRES: `scheduler` outlives the connection; no other connection is
  // open; clients >= 1.
  virtual Result<BackendConnection> Connect(Scheduler& scheduler, AppendHandler on_append, int clients) = 0;
  // The incarnation is gone: nothing more is reported to its handler.
  virtual void Disconnect() = 0;
  // Reports, as kDiscovered, every record the log holds that was never
  // reported (a write whose answer never came). REQUIRES: connected.
  virtual Status DiscoverAppends() = 0;
  // Every record the log holds now, by partition: the ground truth.
  virtual Result<std::vector<std::vector<LogRecord>>> ReadAll() = 0;
  // Whether a record sits at (partition, offset).
  virtual Result<bool> HasRecord(int32_t partition, int64_t offset);
  // The harness corrupts the record at (partition, offset). The model
  // overwrites it; a broker cannot overwrite a record in place, so there the
  // corruption is a view every reader gets from World. REQUIRES: HasRecord.
  virtual void Corrupt(int32_t /*partition*/, int64_t /*offset*/) {}
  // Appends a record the run does not write (a `foreign` step: another
  // producer of the topic) and returns where it went. It is never reported
  // to an append handler, now or by DiscoverAppends. REQUIRES: `partition`
  // exists.
  virtual Result<RecordPosition> AppendForeign(int32_t partition, std::string key, std::string value) = 0;
  // Kafka's DeleteRecords on `partition` up to `before_offset`, clipped to
  // the partition's end; returns the log start it leaves. The model deletes;
  // on librdkafka the harness hides the records from every reader
  // (model/log_lifecycle.h) once the caller notes the new start there.
  virtual Result<int64_t> DeleteRecords(int32_t partition, int64_t before_offset) = 0;
  // The topic is deleted and created again under its name: every record is
  // gone and offsets start over. REQUIRES: no incarnation is connected.
  virtual Status RecreateTopic() = 0;
  // Log compaction of the whole log (KafkaLog::Compact); returns the
  // positions removed. The model removes them; on librdkafka (the mock
  // ignores topic configs, a real broker compacts when its cleaner decides)
  // the harness hides them from every reader once the caller notes them in
  // LogLifecycle.
  virtual Result<Compaction> Compact(const TombstoneExpired& expired) = 0;
  // Kafka's CreatePartitions: the topic grows to `partitions` (more than it
  // has). Clients connected before keep the partitions they found; the next
  // ones see them all.
  virtual Status AddPartitions(int32_t partitions) = 0;

  // Takes the broker down for real where the backend can (librdkafka's mock
  // cluster): its connections close and new ones are refused. The outage's
  // length is kept in simulated time by the harness (KafkaLog's outage
  // window); the backend brings the broker back before it next talks to it.
  virtual Status TakeBrokerDown() { return Status::Ok(); }

  // The first failure of the run's infrastructure (a broker gone, a timeout,
  // a refused connection, a topic admin call that failed) that the harness
  // did not inject: ok while there was none, and always on the model. A run
  // with one is not judged (Verdict::kInfra, docs/backends.md).
  virtual Status InfrastructureFailure() const { return Status::Ok(); }
};

}  // namespace durasim
