// LogLifecycle implementation.
#include "model/log_lifecycle.h"

#include <fmt/format.h>

#include "store/check.h"

namespace durasim {

void LogLifecycle::NoteAppend(int32_t partition, int64_t offset, SimTime at) {
  DURASIM_CHECK_GE(partition, 0);
  DURASIM_CHECK_LT(static_cast<size_t>(partition), appended_at_.size());
  appended_at_[static_cast<size_t>(partition)].emplace(offset, at);
}

void LogLifecycle::NoteDeleted(int32_t partition, int64_t start) {
  int64_t& current = starts_.at(static_cast<size_t>(partition));
  DURASIM_CHECK_GE(start, current);  // a log start never moves back
  current = start;
  std::map<int64_t, SimTime>& times = appended_at_[static_cast<size_t>(partition)];
  times.erase(times.begin(), times.lower_bound(start));
}

void LogLifecycle::NoteRecreated() {
  starts_.assign(starts_.size(), 0);
  appended_at_.assign(appended_at_.size(), {});
  ++incarnation_;
}

std::vector<std::pair<int32_t, int64_t>> LogLifecycle::Expired(SimTime now, SimDuration retention) const {
  std::vector<std::pair<int32_t, int64_t>> expired;
  for (size_t p = 0; p < appended_at_.size(); ++p) {
    int64_t before = starts_[p];
    // Offsets are contiguous from the start; stop at the first record that
    // is young enough (or the harness never saw).
    for (const auto& [offset, at] : appended_at_[p]) {
      if (offset != before || now - at <= retention) break;
      before = offset + 1;
    }
    if (before > starts_[p]) expired.emplace_back(static_cast<int32_t>(p), before);
  }
  return expired;
}

std::optional<std::string> LogLifecycle::WhyStale(const RecoveryMarker& marker, int64_t incarnation) const {
  if (incarnation != incarnation_) {
    return fmt::format("the topic was re-created since the checkpoint (incarnation {}, now {})", incarnation,
                       incarnation_);
  }
  for (const auto& [partition, offset] : marker.offsets) {
    if (partition < 0 || static_cast<size_t>(partition) >= starts_.size()) continue;  // the store's check
    if (offset < starts_[static_cast<size_t>(partition)]) {
      return fmt::format("partition {}: the marker's offset {} is below the log start {}", partition, offset,
                         starts_[static_cast<size_t>(partition)]);
    }
  }
  return std::nullopt;
}

}  // namespace durasim
