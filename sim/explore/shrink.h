// Shrink: delta-debugging of a failing scenario. Removes attempts, inputs,
// steps, actions and suppliers and simplifies numbers for as long as the run
// still shows the same failure (sim/run/runner.h Shows), within a wall-clock
// budget. Every
// candidate goes through the scenario writer and parser, so the result is
// always a valid scenario file.
#pragma once

#include <chrono>
#include <string>

#include "model/scenario.h"
#include "model/verdict.h"
#include "sim/run/runner.h"

namespace durasim {

struct ShrinkResult {
  Scenario scenario;
  int candidates_tried = 0;
  int candidates_kept = 0;
  bool budget_exhausted = false;  // out of time, interrupted, or stopped by `infra`
  // A candidate's run met an infrastructure failure (sim/run/infra_guard.h):
  // the shrink stopped there with what it had, which still fails. Its cause.
  std::string infra;
};

// REQUIRES: RunScenario(failing, options) shows `failure`.
ShrinkResult Shrink(const Scenario& failing, const RunOptions& options, ExpectedVerdict failure,
                    std::chrono::milliseconds budget);

}  // namespace durasim
