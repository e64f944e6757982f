// RestoreClock implementation.
#include "sim/run/restore_clock.h"

#include "store/check.h"

namespace durasim {

void RestoreClock::OnRebuildStart(int32_t subtask) {
  DURASIM_CHECK_EQ(subtask_, -1);  // rebuilds do not overlap: each runs to its end
  subtask_ = subtask;
  started_ = std::chrono::steady_clock::now();
}

void RestoreClock::OnRebuild(const Status& /*status*/, bool /*marker_invalid_expected*/,
                             bool /*corrupt_in_range*/, size_t /*trace_index*/) {
  DURASIM_CHECK_GE(subtask_, 0);  // every end has its start
  const auto elapsed = std::chrono::steady_clock::now() - started_;
  wall_us_[{attempt_, subtask_}] = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
  subtask_ = -1;
}

int64_t RestoreClock::WallUs(int attempt, int32_t subtask) const {
  auto it = wall_us_.find({attempt, subtask});
  return it == wall_us_.end() ? 0 : it->second;
}

}  // namespace durasim
