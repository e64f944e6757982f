// What a scenario can cost, estimated from its shape before it runs: how
// many action runs one input triggers (emits fan out), how many call
// results one action state can hold, and the work of a whole run in units
// that track wall time (docs/benchmarks.md, "Worst case": about 2 us per
// unit on the reference machine). The parser refuses a file whose work
// passes limits::kWorkUnitsMax; the runner gives an attempt the simulated
// time its script and its work can need (AttemptTimeNeeded), so a run within
// the limits never meets a hidden bound.
#pragma once

#include <cstdint>

#include "model/scenario.h"
#include "model/scheduler.h"

namespace durasim {

struct ScenarioCost {
  // The action runs one input triggers, transitively, under the costliest plan.
  int64_t action_runs_per_input = 0;
  // The most call results one action's state can hold: its calls times the
  // tries each may take (on_error retry).
  int64_t call_results_per_action_max = 0;
  // The whole run: each attempt and each reference run (one per plan) may
  // run every input, and each put of an action's state holds its calls so
  // far (the store's format: O(calls^2) bytes per action); script steps
  // cost what they touch (keyed state, the log, per subtask).
  int64_t work_units = 0;
};

// Saturates at kCostSaturated instead of overflowing.
inline constexpr int64_t kCostSaturated = int64_t{1} << 62;
ScenarioCost CostOf(const Scenario& scenario);

// Simulated time attempt `attempt` (1-based) may need when nothing goes
// wrong: its script's durations plus every put and call of its inputs, one
// after another, at their largest latencies. The runner bounds an attempt by
// the larger of this and RunOptions::attempt_time_bound.
SimDuration AttemptTimeNeeded(const Scenario& scenario, int attempt);

}  // namespace durasim
