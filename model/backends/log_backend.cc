// LogBackend's shared parts.
#include "model/backends/log_backend.h"

#include <algorithm>

namespace durasim {

const char* AppendSeenTraceKind(AppendSeen seen) {
  switch (seen) {
    case AppendSeen::kAppended: return "log.append";
    case AppendSeen::kDiscovered: return "log.discovered";
  }
  return "log.unknown";
}

Result<bool> LogBackend::HasRecord(int32_t partition, int64_t offset) {
  Result<std::vector<std::vector<LogRecord>>> all = ReadAll();
  if (!all.ok()) return all.status();
  if (partition < 0 || static_cast<size_t>(partition) >= all->size()) return false;
  const std::vector<LogRecord>& records = (*all)[static_cast<size_t>(partition)];
  return std::any_of(records.begin(), records.end(), [&](const LogRecord& r) { return r.offset == offset; });
}

}  // namespace durasim
