// RestoreClock: times each restore's rebuild in wall time, per attempt and
// subtask. The model announces a rebuild's start and end (RunObserver); the
// clock lives here, outside the deterministic floors, and what it reads
// never reaches the trace: on a real broker it is what a restore waits for
// the log (compare-stores' restore times), on the model the rebuild's CPU.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>

#include "model/observer.h"

namespace durasim {

class RestoreClock : public RunObserver {
 public:
  void OnAttemptStart(int attempt) override { attempt_ = attempt; }
  void OnRebuildStart(int32_t subtask) override;
  void OnRebuild(const Status& status, bool marker_invalid_expected, bool corrupt_in_range,
                 size_t trace_index) override;

  // The wall time of subtask `subtask`'s rebuild in attempt `attempt`, in
  // microseconds (0 when it did not rebuild).
  int64_t WallUs(int attempt, int32_t subtask) const;

 private:
  int attempt_ = 0;
  int32_t subtask_ = -1;  // whose rebuild runs; -1: none
  std::chrono::steady_clock::time_point started_;
  std::map<std::pair<int, int32_t>, int64_t> wall_us_;
};

}  // namespace durasim
