// `durasim mutants`: the kill matrix of the bug zoo over explore seeds
// (sim/explore/kill_matrix.h), or with --scenarios over scenario files
// (sim/explore/scenario_kill_matrix.h).
#include <fmt/format.h>

#include <iostream>

#include "model/store_designs.h"
#include "properties/mutants/mutant.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/explore/interrupt.h"
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
  for (const std::string& name : options.only) {
    const Mutant* mutant = FindMutant(name);
    if (const std::optional<std::string> why = mutant && options.store ? WhyNotOn(*mutant, *options.store) : std::nullopt) {
      std::cerr << "durasim: " << *why << " (--store)\n";
      return kExitUsage;
    }
  }
  options.report_json_path = state.options.report_json_path;
  for (const std::string& path : *files) {
    Result<Scenario> scenario = LoadScenarioFile(path);
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      return kExitUsage;
    }
    // --store as `run --store` applies it: to each file that does not
    // name its own design.
    if (state.options.store && !scenario->store_named) {
      std::optional<std::string> why = NotRunnableOn(*scenario, *state.options.store);
      const Mutant* own = scenario->mutant ? FindMutant(*scenario->mutant) : nullptr;
      if (!why && own != nullptr) why = WhyNotOn(*own, *state.options.store);
      if (why) {
        std::cout << fmt::format("not run on store design {}: {}: {}\n", NameOf(*state.options.store), path, *why);
        continue;
      }
      scenario->store = *state.options.store;
      scenario->store_named = true;
    }
    options.files.emplace_back(path, *std::move(scenario));
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
