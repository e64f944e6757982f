// MemoryLogBackend implementation.
#include "model/backends/memory_log_backend.h"

#include "model/memory_log_client.h"

namespace durasim {

Result<BackendConnection> MemoryLogBackend::Connect(Scheduler& scheduler, AppendHandler on_append, int clients) {
  DURASIM_CHECK_MSG(!log_.has_append_listener(), "a second incarnation connected before the first disconnected");
  DURASIM_CHECK_GE(clients, 1);
  log_.set_append_listener(
      [on_append = std::move(on_append)](const LogRecord& record) { on_append(record, AppendSeen::kAppended); });
  BackendConnection connection;
  for (int i = 0; i < clients; ++i) {
    connection.clients.push_back(BackendClient{std::make_unique<MemoryLogClient>(scheduler, log_, config_), nullptr});
  }
  return connection;
}

Result<std::vector<std::vector<LogRecord>>> MemoryLogBackend::ReadAll() {
  std::vector<std::vector<LogRecord>> all;
  for (int32_t p = 0; p < log_.partitions(); ++p) all.push_back(log_.Read(p, 0, log_.Offsets(p).end));
  return all;
}

}  // namespace durasim
