// Rendering of run reports: the terminal table and the JSON report.
#pragma once

#include <string>
#include <vector>

#include "sim/runner.h"
#include "store/status.h"

namespace durasim {

// A fixed-width table: scenario, verdict, ok, supplier calls, outputs,
// simulated time, trace hash; then the violations and mismatches.
std::string RenderTable(const std::vector<RunReport>& reports);

// The JSON report: {"runs": [...], "summary": {...}}.
std::string RenderJson(const std::vector<RunReport>& reports);

Status WriteFile(const std::string& path, const std::string& contents);

}  // namespace durasim
