// Shrink: delta-debugging of a failing scenario. Removes attempts, inputs,
// steps, actions and suppliers and simplifies numbers for as long as the run
// still violates the same invariant, within a wall-clock budget. Every
// candidate goes through the scenario writer and parser, so the result is
// always a valid scenario file.
#pragma once

#include <chrono>
#include <string>

#include "sim/runner.h"
#include "model/scenario.h"

namespace durasim {

struct ShrinkResult {
  Scenario scenario;
  int candidates_tried = 0;
  int candidates_kept = 0;
  bool budget_exhausted = false;
};

// Whether `report` shows the failure being shrunk: the invariant violated,
// or "liveness" for a stuck run.
bool ShowsFailure(const RunReport& report, const std::string& invariant);

// REQUIRES: RunScenario(failing, options) shows `invariant`.
ShrinkResult Shrink(const Scenario& failing, const RunOptions& options, const std::string& invariant,
                    std::chrono::milliseconds budget);

}  // namespace durasim
