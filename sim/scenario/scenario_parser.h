// The scenario parser: scenario files (docs/scenarios.md) into the
// scenario types of model/scenario.h, strictly: every error names
// file:line:column and what was expected.
#pragma once

#include <string>

#include "model/scenario.h"
#include "store/status.h"

namespace durasim {

// Parses and validates scenario YAML text. Errors are kInvalidArgument with
// "<path>:<line>:<column>: <what was expected>".
[[nodiscard]] Result<Scenario> ParseScenario(const std::string& yaml_text, const std::string& path);

// Reads and parses one scenario file.
[[nodiscard]] Result<Scenario> LoadScenarioFile(const std::string& path);

}  // namespace durasim
