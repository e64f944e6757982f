// The run context a failed DURASIM_CHECK prints (store/check.h): which
// scenario was running, with which seed, and the command that reproduces
// it. The runner registers it for the duration of RunScenario; the
// simulated clock adds the time itself (model/scheduler.h).
#pragma once

#include <string>

#include "model/scenario.h"
#include "sim/run/run_options.h"
#include "store/check.h"

namespace durasim {

// "run: scenario <path>, seed <S>[, mutant M][, backend B]" and
// "reproduce: build/durasim run|replay ...": a scenario from a file is
// rerun from the file; one without a path was generated from its seed
// (explore, replay, the shrinker's candidates: the replay command then
// reruns the unshrunk scenario of that seed).
std::string DescribeRun(const Scenario& scenario, const RunOptions& options);

// Registers DescribeRun(scenario, options) until the result is destroyed.
// REQUIRES: `scenario` and `options` outlive the result.
CheckContext RunCheckContext(const Scenario& scenario, const RunOptions& options);

}  // namespace durasim
