// WriteScenarioYaml: renders a Scenario as a scenario file that
// ParseScenario reads back to the same Scenario (positions aside). Used to
// turn generated and shrunk runs into files a person can read and commit.
#pragma once

#include <string>
#include <vector>

#include "model/scenario.h"

namespace durasim {

// `header_lines` become `# ` comments at the top of the file.
std::string WriteScenarioYaml(const Scenario& scenario, const std::vector<std::string>& header_lines);

}  // namespace durasim
