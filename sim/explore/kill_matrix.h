// `durasim mutants`: the kill matrix. For every registered mutant, the
// exploration sweep runs with that mutant until the first seed that violates
// the invariant the mutant is registered with (the kill), or the seed budget;
// the kill's scenario is shrunk and written down. A seed that fails by other
// invariants only on the way is reported, and the sweep goes on. A mutant
// survives when no seed fails, and is caught only by an unexpected invariant
// when seeds fail but none by its own. The production code runs over the same
// budget and must show nothing.
//
// Threads and the wall clock live here (through the sweep), outside sim/
// and model/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/store_designs.h"

namespace durasim {

struct MutantsOptions {
  uint64_t seeds = 2000;  // seed budget per mutant, and for the production sweep
  uint64_t seed_start = 1;
  int jobs = 1;
  std::string report_json_path;
  std::string failures_dir = "mutant_failures";  // shrunk scenarios, one per killed mutant
  double shrink_budget_s = 20;                   // per mutant
  std::vector<std::string> only;                 // these mutants only (empty: all)
  bool skip_production = false;
  // Every seed's store design (--store); none: each seed draws its own. A
  // mutant of one design (Mutant::design) runs on it, and is left out when
  // --store names another.
  std::optional<StoreDesign> store;
};

// Prints the kill matrix. Returns 0 when every mutant is killed by its
// expected invariant and the production code shows no failure, 1 otherwise,
// 2 on a usage error (an unknown mutant in `only`).
int RunMutants(const MutantsOptions& options);

// The file name a mutant's regression scenario gets: "cache-before-ack" ->
// "cache_before_ack.yaml".
std::string MutantScenarioFileName(const std::string& mutant);

}  // namespace durasim
