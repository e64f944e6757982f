// Failure files: a failure found by a sweep or the kill matrix, written down
// as a scenario file that reproduces it with `durasim run`: the generated
// scenario with its mutant and the expectation it is filed under, shrunk or
// not, behind a header of comment lines saying how it was found and how to
// replay the run it came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "model/verdict.h"
#include "sim/explore/shrink.h"
#include "sim/runner.h"

namespace durasim {

// `generated`, run with `mutant`, expecting `filed` and nothing else.
Scenario FailingScenario(const Scenario& generated, const std::optional<std::string>& mutant, ExpectedVerdict filed);

// Shrinks `failing` (a FailingScenario) within `budget_s` of wall time; the
// result keeps its name, mutant and expectation.
ShrinkResult ShrinkFailure(const Scenario& failing, const RunOptions& options, double budget_s);

// Header lines: how to replay the generated run, and the first line of the
// failure's message.
std::string ReplayLine(uint64_t seed, const std::optional<std::string>& mutant, const std::string& backend_flags);
std::string FirstViolationLine(const std::string& message);

// Writes `scenario` behind `header` to `path`, creating its folder. A file
// that cannot be written is reported on stderr and the caller goes on: the
// failure is in its report either way.
void WriteFailureFile(const std::string& path, const Scenario& scenario, const std::vector<std::string>& header);

}  // namespace durasim
