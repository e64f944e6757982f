// AppendReporter: the one route by which a real backend's appended records
// reach the harness (LogBackend's AppendHandler): each (partition, offset)
// reported once, to the connected incarnation's handler, whether the sink
// appended it or the backend discovered it in the log later.
//
// Thread-safety: none; the thread that drives the run uses it.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "model/backends/log_backend.h"
#include "store/log_client.h"

namespace durasim {

class AppendReporter {
 public:
  // From now on, records are reported to `on_append`.
  void Listen(AppendHandler on_append) { on_append_ = std::move(on_append); }
  // The incarnation is gone: nothing more is reported until the next Listen.
  void Stop() { on_append_ = nullptr; }
  bool listening() const { return on_append_ != nullptr; }
  // Reports `record` to the listening incarnation unless it was reported.
  void Report(const LogRecord& record, AppendSeen seen) {
    if (!reported_.insert({record.partition, record.offset}).second) return;
    if (on_append_) on_append_(record, seen);
  }
  // Counts (partition, offset) as reported without telling anyone (a
  // record the run did not write: a foreign append).
  void MarkReported(const RecordPosition& at) { reported_.insert({at.partition, at.offset}); }
  // The first offset at or above `from` of `partition` not reported yet:
  // below it, a discovery finds nothing to report, so a backend reads the
  // log from there (a whole log per attempt was one fetch per record on the
  // mock cluster: docs/benchmarks.md, issue 31 session 38).
  int64_t FirstUnreported(int32_t partition, int64_t from) const {
    int64_t offset = from;
    for (auto it = reported_.lower_bound({partition, from}); it != reported_.end() && *it == std::pair{partition, offset};
         ++it) {
      ++offset;
    }
    return offset;
  }
  // Reports, as discovered, every record of `log` (by partition) not reported yet.
  void Discover(const std::vector<std::vector<LogRecord>>& log) {
    for (const std::vector<LogRecord>& partition : log) {
      for (const LogRecord& record : partition) Report(record, AppendSeen::kDiscovered);
    }
  }
  // The topic was re-created: its offsets start over.
  void Forget() { reported_.clear(); }

 private:
  AppendHandler on_append_;                          // the connected incarnation's
  std::set<std::pair<int32_t, int64_t>> reported_;  // (partition, offset) of every record reported
};

}  // namespace durasim
