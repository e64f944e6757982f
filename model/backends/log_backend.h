// LogBackend: where the Kafka log of one run lives: the in-memory model,
// librdkafka's mock cluster, or a real broker. It outlives every attempt
// (crashes lose clients, never the log) and hands each new incarnation a
// fresh LogClient.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/scheduler.h"
#include "store/status.h"
#include "store/log_client.h"

namespace durasim {

class LogBackend {
 public:
  virtual ~LogBackend() = default;

  virtual std::string name() const = 0;
  // A client for a new incarnation of the agent process.
  virtual Result<std::unique_ptr<LogClient>> Connect(Scheduler& scheduler) = 0;
  // True when the backend reports every append itself, at the moment it
  // happens (the model). Otherwise the harness learns of appends from the
  // real client's answers (model/client_record_sink.h) and from reading the
  // log.
  virtual bool reports_appends() const = 0;
  // Every record the log holds now, by partition: the ground truth.
  virtual Result<std::vector<std::vector<LogRecord>>> ReadAll() = 0;

  // Takes the broker down for real where the backend can (librdkafka's mock
  // cluster): its connections close and new ones are refused. The outage's
  // length is kept in simulated time by the harness, which calls
  // EnsureBrokerUp before it next talks to the broker.
  virtual Status TakeBrokerDown() { return Status::Ok(); }
  // Brings a broker taken down back up; a no-op when it is up.
  virtual Status EnsureBrokerUp() { return Status::Ok(); }
  // Whether the broker itself can refuse a write and lose the
  // acknowledgement of a persisted one (librdkafka's mock cluster);
  // elsewhere the harness's fault wrapper injects both.
  virtual bool has_write_fault_controls() const { return false; }
  // Makes the broker refuse the next produce request with a non-retriable
  // error, so its records are not persisted.
  // REQUIRES: has_write_fault_controls().
  virtual Status RefuseNextProduce() {
    return Status(StatusCode::kInternal, "backend " + name() + " cannot refuse a produce");
  }
  // Writes one record whose acknowledgement the broker loses: a short-lived
  // producer sends it, the broker appends it and answers too late, and
  // librdkafka itself reports the write possibly persisted. Returns that
  // answer. REQUIRES: has_write_fault_controls().
  virtual Result<RecordPosition> AppendLosingAck(int32_t /*partition*/, std::string /*key*/,
                                                 std::string /*value*/) {
    return Status(StatusCode::kInternal, "backend " + name() + " cannot lose an acknowledgement");
  }
};

}  // namespace durasim
