// MemoryLogBackend: the in-memory KafkaLog as a LogBackend. Appends are
// reported by the log's own hook, at the simulated instant they happen.
#pragma once

#include "model/kafka_log.h"
#include "model/memory_log_client.h"
#include "model/scenario.h"
#include "model/backends/backend_kind.h"
#include "model/backends/log_backend.h"

namespace durasim {

class MemoryLogBackend : public LogBackend {
 public:
  // REQUIRES: `log` outlives the backend.
  MemoryLogBackend(KafkaLog& log, const LogConfig& config) : log_(log), config_(config) {}

  std::string name() const override { return NameOf(BackendKind::kModel); }
  Result<std::unique_ptr<LogClient>> Connect(Scheduler& scheduler) override {
    return std::unique_ptr<LogClient>(std::make_unique<MemoryLogClient>(scheduler, log_, config_));
  }
  bool reports_appends() const override { return true; }
  Result<std::vector<std::vector<LogRecord>>> ReadAll() override {
    std::vector<std::vector<LogRecord>> all;
    for (int32_t p = 0; p < log_.partitions(); ++p) all.push_back(log_.Read(p, 0, log_.Offsets(p).end));
    return all;
  }

 private:
  KafkaLog& log_;
  LogConfig config_;
};

}  // namespace durasim
