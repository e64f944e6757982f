// Runner: runs one scenario end to end. It first runs the scenario's plan
// and inputs without faults (the reference answer), then runs its attempts
// with the chosen store and runtime (production or a mutant) under every
// invariant checker, and judges the outcome against the expectation.
#pragma once

#include <string>

#include "model/scenario.h"
#include "model/verdict.h"
#include "sim/run/run_options.h"
#include "sim/run/run_report.h"

namespace durasim {

RunReport RunScenario(const Scenario& scenario, const RunOptions& options);

// The report of a run of `scenario` that did not start because its broker
// did not answer (InfraGuard::BeforeRun): verdict infra, `cause` its error.
RunReport NotRunReport(const Scenario& scenario, const RunOptions& options, const std::string& cause);

// Whether `report` shows `expected` (model/verdict.h): what the runner
// judges a scenario's expectation by, and the shrinker a candidate.
bool Shows(const RunReport& report, ExpectedVerdict expected);
// What the sweep files `report` under when it failed.
ExpectedVerdict FiledUnder(const RunReport& report);

}  // namespace durasim
