// Failure files: a failure found by a sweep, the kill matrix or `replay`,
// written down as a scenario file for `durasim run`: the generated scenario
// with its mutant, shrunk or not, behind a header of comment lines saying
// how it was found, what it violated, the first violation and the commands
// that confirm it and keep it as a regression.
//
// What the file expects depends on whose failure it is (FailureExpectation):
// the production code's failure is written with `expect: pass`, so the file
// fails until the bug is fixed and then guards against it (Hypothesis,
// rapidcheck and proptest keep a failing case failing the same way); a
// mutant's failure expects the violation it showed, so the file passes as
// long as the harness catches the mutant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "model/verdict.h"
#include "sim/explore/shrink.h"
#include "sim/run/runner.h"
#include "store/status.h"

namespace durasim {

// pass for the production code (no mutant); `failure` for a mutant.
ExpectedVerdict FailureExpectation(const std::optional<std::string>& mutant, ExpectedVerdict failure);

// `generated`, run with `mutant`, expecting FailureExpectation(mutant,
// failure) and nothing else.
Scenario FailingScenario(const Scenario& generated, const std::optional<std::string>& mutant, ExpectedVerdict failure);

// Shrinks `failing` within `budget_s` of wall time, keeping every candidate
// that still shows `failure`; the result keeps its name, mutant and
// expectation. Stops early, with what it has, on an interrupt
// (sim/interrupt.h).
ShrinkResult ShrinkFailure(const Scenario& failing, const RunOptions& options, ExpectedVerdict failure,
                           double budget_s);

// Header lines: how to replay the generated run, and the first line of the
// failure's message.
std::string ReplayLine(uint64_t seed, const std::optional<std::string>& mutant, const std::string& backend_flags);
std::string FirstViolationLine(const std::string& message);

// What the file expects and why, and the two commands: the one that
// confirms the failure, the one that keeps the file as a regression.
// `run_flags`: the backend flags (and --check-determinism) `run` needs.
std::vector<std::string> ExpectationLines(const std::string& path, const std::optional<std::string>& mutant,
                                          ExpectedVerdict failure, const std::string& run_flags);

// Writes `scenario` behind `header` to `path` atomically, creating its
// folder. When it cannot be written, the error names the path and the
// scenario's YAML is printed to stderr instead, so the failure is never
// lost; the caller must not list `path` as written.
[[nodiscard]] Status WriteFailureFile(const std::string& path, const Scenario& scenario,
                                      const std::vector<std::string>& header);

}  // namespace durasim
