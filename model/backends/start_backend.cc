// StartLogBackend: one switch over the backend kinds.
#include "model/backends/start_backend.h"

#include "model/backends/fluss_backend.h"
#include "model/backends/memory_log_backend.h"
#include "model/backends/rdkafka_backend.h"

namespace durasim {
namespace {

Result<std::unique_ptr<LogBackend>> Started(Result<std::unique_ptr<RdKafkaBackend>> backend) {
  if (!backend.ok()) return backend.status();
  return std::unique_ptr<LogBackend>(std::move(backend).value());
}

}  // namespace

Result<std::unique_ptr<LogBackend>> StartLogBackend(BackendKind kind, const std::string& bootstrap_servers,
                                                    const RunLog& run_log) {
  const RdKafkaBackend::Harness harness{run_log.config, run_log.model_log, run_log.corrupted, run_log.lifecycle,
                                        run_log.partitions_max, run_log.topic_name};
  switch (kind) {
    case BackendKind::kModel:
      return std::unique_ptr<LogBackend>(std::make_unique<MemoryLogBackend>(run_log.model_log, run_log.config));
    case BackendKind::kMock: return Started(RdKafkaBackend::StartMock(harness));
    case BackendKind::kKafka: return Started(RdKafkaBackend::OnBroker(bootstrap_servers, harness));
    case BackendKind::kFluss: {
      Result<std::unique_ptr<FlussBackend>> fluss = FlussBackend::OnGateway(
          bootstrap_servers, FlussBackend::Harness{run_log.config, run_log.model_log, run_log.corrupted,
                                                   run_log.lifecycle, run_log.partitions_max});
      if (!fluss.ok()) return fluss.status();
      return std::unique_ptr<LogBackend>(std::move(fluss).value());
    }
  }
  return Status(StatusCode::kInternal, "no such backend kind");
}

}  // namespace durasim
