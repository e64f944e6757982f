// MemoryLogBackend: the in-memory KafkaLog as a LogBackend. The producer is
// the model's own (MemoryLogClient); appends are reported by the log's own
// hook, at the simulated instant they happen, so nothing is ever discovered.
#pragma once

#include "model/backends/backend_kind.h"
#include "model/backends/log_backend.h"
#include "model/kafka_log.h"
#include "model/scenario.h"
#include "store/check.h"

namespace durasim {

class MemoryLogBackend : public LogBackend {
 public:
  // REQUIRES: `log` and `config` outlive the backend.
  MemoryLogBackend(KafkaLog& log, const LogConfig& config) : log_(log), config_(config) {}
  ~MemoryLogBackend() override { log_.set_append_listener(nullptr); }

  std::string name() const override { return NameOf(BackendKind::kModel); }
  Result<BackendConnection> Connect(Scheduler& scheduler, AppendHandler on_append, int clients) override;
  void Disconnect() override { log_.set_append_listener(nullptr); }
  Status DiscoverAppends() override { return Status::Ok(); }
  Result<std::vector<std::vector<LogRecord>>> ReadAll() override;
  Result<bool> HasRecord(int32_t partition, int64_t offset) override { return log_.Find(partition, offset) != nullptr; }
  void Corrupt(int32_t partition, int64_t offset) override { DURASIM_CHECK(log_.Corrupt(partition, offset)); }
  Result<RecordPosition> AppendForeign(int32_t partition, std::string key, std::string value) override {
    return log_.AppendUnheard(partition, std::move(key), std::move(value));
  }
  Result<int64_t> DeleteRecords(int32_t partition, int64_t before_offset) override {
    return log_.DeleteRecords(partition, before_offset);
  }
  Result<Compaction> Compact(const TombstoneExpired& expired) override { return log_.Compact(expired); }
  Status AddPartitions(int32_t partitions) override {
    DURASIM_CHECK_GT(partitions, log_.partitions());
    log_.AddPartitions(partitions - log_.partitions());
    return Status::Ok();
  }
  Status RecreateTopic() override {
    log_.Recreate();
    return Status::Ok();
  }

 private:
  KafkaLog& log_;
  const LogConfig& config_;
};

}  // namespace durasim
