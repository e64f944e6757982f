// TraceView: the trace as a person reads it (`--trace`). Each line keeps
// its event number (the `#43` that violations quote), time, attempt and
// kind, so a grep written for the hashed lines still matches; action and
// event hashes are replaced by the action's name and the event's type
// (learned from the trace's own action.start lines; identical sibling
// events keep a short hash suffix), record keys by the state they name, and
// each record line gets what the record holds. Lines a violation cites are
// marked with its invariant. Filters keep the run's skeleton (attempts,
// checkpoints, restores, crashes: lines that name no key and no subtask)
// and drop the lines of other keys, attempts or subtasks.
//
// Rendering only: the hashed lines (model/trace.h) are not touched, and the
// trace hash is theirs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "sim/run/runner.h"

namespace durasim {

struct TraceFilter {
  std::optional<std::string> key;  // input key
  std::optional<int> attempt;      // 1-based
  std::optional<int32_t> subtask;  // the subtask that owns a line's key in its attempt, or its tag
  bool any() const { return key || attempt || subtask; }
};

// The readable lines of `report`'s trace that `filter` keeps. `scenario`
// (the one `report` ran) gives each attempt's parallelism for the subtask
// filter.
std::vector<std::string> ReadableTrace(const RunReport& report, const Scenario& scenario, const TraceFilter& filter);

}  // namespace durasim
