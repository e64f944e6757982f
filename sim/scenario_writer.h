// WriteScenarioYaml: renders a Scenario as a scenario file that
// ParseScenario reads back to the same Scenario (positions aside). Used to
// turn generated and shrunk runs into files a person can read and commit.
//
// Determinism contract (sim/): no wall clock, no threads, no std::random_device,
// no iteration over unordered containers where the order can reach the trace,
// no standard-library distributions.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario.h"

namespace durasim {

// `header_lines` become `# ` comments at the top of the file.
std::string WriteScenarioYaml(const Scenario& scenario, const std::vector<std::string>& header_lines);

}  // namespace durasim
