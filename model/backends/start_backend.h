// Where a run's log lives, chosen once per run: the model's in-memory log,
// librdkafka's mock cluster or a real broker. This header names no
// librdkafka type, so the deterministic world (model/world.cc) starts a
// backend without seeing librdkafka.
#pragma once

#include <memory>
#include <string>

#include "model/backends/backend_kind.h"
#include "model/backends/log_backend.h"
#include "model/kafka_log.h"
#include "model/log_lifecycle.h"
#include "model/scenario.h"
#include "store/status.h"

namespace durasim {

// What a backend shares with the run's model: the scenario's log
// configuration, the model's log (the run's log on the model backend, the
// outage window on every backend) and the records the harness corrupted.
// REQUIRES: all three outlive the backend.
struct RunLog {
  const LogConfig& config;
  KafkaLog& model_log;
  const CorruptedPositions& corrupted;
  const LogLifecycle& lifecycle;  // deletions the harness shows readers of a real log
  int32_t partitions_max = 0;     // after every add_partitions of the run; 0: config.partitions
  // kafka: the run's topic (`run --keep-topic`), a name the broker does not
  // hold yet; "" for a fresh name.
  std::string topic_name = {};
};

// The backend of `kind`; kafka on the broker at `bootstrap_servers`, fluss
// through the Fluss gateway there.
[[nodiscard]] Result<std::unique_ptr<LogBackend>> StartLogBackend(BackendKind kind,
                                                                  const std::string& bootstrap_servers,
                                                                  const RunLog& run_log);

}  // namespace durasim
