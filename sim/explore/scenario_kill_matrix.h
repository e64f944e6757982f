// `durasim mutants --scenarios DIR`: a kill matrix over the user's own
// scenario files (FoundationDB's negative tests, for a user's suite). Every
// file that expects something of the production code is run under every
// mutant; a mutant is caught by a file whose run is then not as the file
// expects. A negative file (one naming its own `mutant:`) catches its own
// mutant when it shows what it expects. A file that is not as expected on
// the code it names (a broken baseline) catches nothing and is reported.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/scenario.h"
#include "store/store_design.h"

namespace durasim {

struct ScenarioKillOptions {
  std::vector<std::pair<std::string, Scenario>> files;  // path, parsed scenario
  std::vector<std::string> only;                        // these mutants only (empty: all)
  std::string report_json_path;
  // --store: the files were given this design (those that name none), and
  // only the mutants that apply to it run (Mutant::designs).
  std::optional<StoreDesign> store;
};

// Prints which mutants the files catch and which they miss. Returns 0 when
// every mutant is caught and every file is as expected on its own code, 1
// otherwise, 7 when the JSON report could not be written.
int RunScenarioKillMatrix(const ScenarioKillOptions& options);

}  // namespace durasim
