// `durasim mutants`: the kill matrix of the bug zoo over explore seeds
// (sim/explore/kill_matrix.h), or with --scenarios over scenario files
// (sim/explore/scenario_kill_matrix.h).
#include <iostream>

#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/explore/kill_matrix.h"
#include "sim/explore/scenario_kill_matrix.h"
#include "sim/scenario/scenario_parser.h"

namespace durasim {
namespace {

struct MutantsState {
  MutantsOptions options;
  std::vector<std::string> scenarios;  // --scenarios: the kill matrix over these files instead
};

// `mutants --scenarios`: every file must parse (a file that does not is a
// usage error naming it).
int ScenarioKillMatrix(const MutantsState& state) {
  Result<std::vector<std::string>> files = CollectScenarioFiles(state.scenarios);
  if (!files.ok()) {
    std::cerr << "durasim: " << files.status().message() << "\n";
    return kExitUsage;
  }
  ScenarioKillOptions options;
  options.only = state.options.only;
  options.store = state.options.store;
  options.report_json_path = state.options.report_json_path;
  for (const std::string& name : options.only) {
    if (!MutantAppliesToStore(name, options.store)) return kExitUsage;
  }
  std::vector<Scenario> scenarios;
  for (const std::string& path : *files) {
    Result<Scenario> scenario = LoadScenarioFile(path);
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      return kExitUsage;
    }
    scenarios.push_back(*std::move(scenario));
  }
  // --store as `run --store` applies it: to each file that names no design
  // and that design can run.
  for (const LeftOutFile& file : LeaveOutNotRunnable(scenarios, options.store, std::nullopt)) {
    std::cout << LeftOutLine(file) << "\n";
  }
  for (Scenario& scenario : scenarios) {
    if (options.store && !scenario.store_named) {
      scenario.store = *options.store;
      scenario.store_named = true;
    }
    std::string path = scenario.path;
    options.files.emplace_back(std::move(path), std::move(scenario));
  }
  InstallInterruptHandlers();
  return RunScenarioKillMatrix(options);
}

}  // namespace

Command AddMutantsCommand(CLI::App& app) {
  auto state = std::make_shared<MutantsState>();
  CLI::App& mutants = *app.add_subcommand("mutants", "the kill matrix: explore with every mutant until it is caught");
  MutantsOptions& options = state->options;
  mutants.add_option("--seeds", options.seeds, "seed budget per mutant")->check(WholeNumber(1, "a count of seeds"));
  mutants.add_option("--seed-start", options.seed_start, "first seed")->check(WholeNumber(0, "a seed"));
  mutants.add_option("--jobs", options.jobs, "worker threads")->check(Jobs());
  mutants.add_option("--report-json", options.report_json_path, "write the kill matrix as JSON");
  mutants.add_option("--failures-dir", options.failures_dir, "where shrunk failing scenarios are written");
  mutants.add_option("--shrink-budget-s", options.shrink_budget_s, "wall time to shrink one failure")
      ->check(Seconds());
  mutants.add_option("--mutant", options.only, "only these mutants (repeatable)");
  AddStoreOption(mutants, options.store, "every seed with this store design (default: each seed draws one)");
  mutants.add_option("--scenarios", state->scenarios,
                     "run these scenario files or folders under every mutant instead of exploring seeds: which "
                     "mutants your own files catch (repeatable)");
  return {&mutants, [state] {
            for (const std::string& name : state->options.only) {
              if (!KnownMutant(name)) return kExitUsage;
            }
            if (!state->scenarios.empty()) return ScenarioKillMatrix(*state);
            return RunMutants(state->options);
          }};
}

}  // namespace durasim
