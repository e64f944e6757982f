// `durasim mutants` implementation.
#include "explore/mutants_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "explore/shrink.h"
#include "explore/sweep.h"
#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/report.h"
#include "sim/scenario_writer.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kProduction = "(production)";

// One line of the kill matrix.
struct Row {
  std::string mutant;    // kProduction for the production code
  std::string expected;  // the invariant that must catch it; "none" for production
  bool failed = false;   // some seed failed
  bool ok = false;       // killed by `expected` (a mutant) or no failure at all (production)
  uint64_t seed = 0;     // the first failing seed
  uint64_t seeds_run = 0;
  std::vector<std::string> caught_by;  // invariants of the first failing seed
  std::string message;
  double sweep_s = 0;
  double shrink_s = 0;
  size_t attempts = 0;  // of the shrunk scenario
  size_t inputs = 0;
  size_t steps = 0;  // attempt steps, over all attempts
  bool shrink_exhausted = false;
  std::string file;
};

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string FailureInvariant(const SeedResult& seed) {
  if (seed.verdict == "stuck") return "liveness";
  if (seed.verdict == "error" || seed.invariants.empty()) return "error";
  return seed.invariants.front();
}

// Shrinks the failing seed's scenario and writes it as a regression file.
void ShrinkAndWrite(const MutantsOptions& options, const Mutant* mutant, const std::string& invariant, Row& row) {
  const Clock::time_point start = Clock::now();
  Scenario failing = GenerateFromSeed(row.seed).scenario;
  if (mutant != nullptr) failing.mutant = mutant->name;
  failing.expect = Expectation{};
  failing.expect.verdict = invariant;
  RunOptions run_options;
  run_options.mutant = failing.mutant;
  const auto budget = std::chrono::milliseconds(static_cast<int64_t>(options.shrink_budget_s * 1000));
  ShrinkResult shrunk = Shrink(failing, run_options, invariant, budget);
  row.shrink_s = Seconds(Clock::now() - start);
  Scenario& s = shrunk.scenario;
  const std::string file_name = mutant != nullptr ? MutantScenarioFileName(mutant->name) : "production_failure.yaml";
  s.name = file_name.substr(0, file_name.size() - std::string(".yaml").size());
  s.description = mutant != nullptr ? mutant->description : "the production code failed";
  s.mutant = failing.mutant;
  s.expect = failing.expect;
  row.attempts = s.attempts.size();
  row.inputs = s.inputs.size();
  for (const AttemptSpec& attempt : s.attempts) row.steps += attempt.steps.size();
  row.shrink_exhausted = shrunk.budget_exhausted;

  const std::string who = mutant != nullptr ? "mutant " + mutant->name : "the production code";
  std::vector<std::string> header = {
      fmt::format("Strategy: {} must be caught by {}: {}.", who, invariant, s.description),
      fmt::format("Found by `durasim mutants`: explore seed {} was the first of {} to fail; shrunk to {} attempts, "
                  "{} inputs{}.",
                  row.seed, row.seeds_run, row.attempts, row.inputs,
                  shrunk.budget_exhausted ? " (shrink budget exhausted)" : ""),
      fmt::format("Invariant: {} (must be violated).", invariant),
  };
  if (mutant != nullptr) header.push_back(fmt::format("from: {}", mutant->origin));
  header.push_back(fmt::format("replay the generated run: build/durasim replay --seed {}{}", row.seed,
                               mutant != nullptr ? " --mutant " + mutant->name : ""));
  const std::string first_line = row.message.substr(0, row.message.find('\n'));
  header.push_back(fmt::format("first violation: {}", first_line));

  std::error_code error;
  std::filesystem::create_directories(options.failures_dir, error);
  row.file = fmt::format("{}/{}", options.failures_dir, file_name);
  const Status written = WriteFile(row.file, WriteScenarioYaml(s, header));
  if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
}

Row RunOne(const MutantsOptions& options, const Mutant* mutant) {
  Row row;
  row.mutant = mutant != nullptr ? mutant->name : kProduction;
  row.expected = mutant != nullptr ? mutant->expected_invariant : "none";
  SweepOptions sweep;
  sweep.seeds = options.seeds;
  sweep.seed_start = options.seed_start;
  sweep.jobs = options.jobs;
  if (mutant != nullptr) sweep.mutant = mutant->name;
  sweep.failures_dir = fmt::format("{}/sweeps/{}", options.failures_dir,
                                   mutant != nullptr ? mutant->name : std::string("production"));
  sweep.shrink_max = 0;  // the first failing seed is shrunk below, whichever worker found it
  sweep.progress = false;
  sweep.stop_on_first_failure = true;
  const SweepResult result = SweepSeeds(sweep);
  row.sweep_s = result.wall_s;
  auto first = std::find_if(result.seeds.begin(), result.seeds.end(),
                            [](const SeedResult& seed) { return seed.verdict != "pass"; });
  row.seeds_run = first != result.seeds.end() ? first->seed - options.seed_start + 1 : result.seeds.size();
  if (first == result.seeds.end()) {
    row.ok = mutant == nullptr;
    return row;
  }
  row.failed = true;
  row.seed = first->seed;
  row.caught_by = first->invariants;
  if (row.caught_by.empty()) row.caught_by.push_back(FailureInvariant(*first));
  row.message = first->message;
  const bool expected = mutant != nullptr && std::find(row.caught_by.begin(), row.caught_by.end(),
                                                       mutant->expected_invariant) != row.caught_by.end();
  row.ok = expected;
  ShrinkAndWrite(options, mutant, expected ? mutant->expected_invariant : FailureInvariant(*first), row);
  return row;
}

std::string Outcome(const Row& row) {
  if (row.mutant == kProduction) return row.failed ? "FAILED" : "clean";
  if (!row.failed) return "SURVIVED";
  return row.ok ? "killed" : "WRONG-CATCH";
}

std::string Matrix(const std::vector<Row>& rows, const MutantsOptions& options) {
  std::string out = fmt::format("kill matrix: seeds {}..{} per mutant, jobs {}\n", options.seed_start,
                                options.seed_start + options.seeds - 1, options.jobs);
  out += fmt::format("{:<30} {:<11} {:<16} {:<16} {:>6} {:>8} {:>9}  {}\n", "mutant", "result", "expected",
                     "caught by", "seeds", "wall_s", "shrink_s", "shrunk (attempts/inputs/steps)");
  for (const Row& row : rows) {
    const std::string caught = row.failed ? fmt::format("{}", fmt::join(row.caught_by, ",")) : "-";
    const std::string shrunk =
        row.failed ? fmt::format("{}/{}/{}{}", row.attempts, row.inputs, row.steps, row.shrink_exhausted ? "*" : "")
                   : "-";
    out += fmt::format("{:<30} {:<11} {:<16} {:<16} {:>6} {:>8.2f} {:>9.2f}  {}\n", row.mutant, Outcome(row),
                       row.expected, caught, row.seeds_run, row.sweep_s, row.shrink_s, shrunk);
  }
  for (const Row& row : rows) {
    if (!row.file.empty()) out += fmt::format("  {}: {}\n", row.mutant, row.file);
  }
  return out;
}

nlohmann::json ToJson(const std::vector<Row>& rows, const MutantsOptions& options) {
  nlohmann::json out = nlohmann::json::array();
  for (const Row& row : rows) {
    nlohmann::json entry = {{"mutant", row.mutant},
                            {"result", Outcome(row)},
                            {"ok", row.ok},
                            {"expected_invariant", row.expected},
                            {"caught_by", row.caught_by},
                            {"seeds_run", row.seeds_run},
                            {"sweep_wall_s", row.sweep_s}};
    if (row.failed) {
      entry["first_failing_seed"] = row.seed;
      entry["message"] = row.message;
      entry["shrink_wall_s"] = row.shrink_s;
      entry["shrunk"] = {{"attempts", row.attempts},
                         {"inputs", row.inputs},
                         {"steps", row.steps},
                         {"budget_exhausted", row.shrink_exhausted},
                         {"file", row.file}};
    }
    out.push_back(std::move(entry));
  }
  return {{"seed_start", options.seed_start}, {"seeds", options.seeds}, {"jobs", options.jobs}, {"rows", out}};
}

}  // namespace

std::string MutantScenarioFileName(const std::string& mutant) {
  std::string name = mutant;
  std::replace(name.begin(), name.end(), '-', '_');
  return name + ".yaml";
}

int RunMutants(const MutantsOptions& options) {
  std::vector<const Mutant*> mutants;
  for (const Mutant& mutant : AllMutants()) {
    if (options.only.empty() || std::find(options.only.begin(), options.only.end(), mutant.name) != options.only.end()) {
      mutants.push_back(&mutant);
    }
  }
  for (const std::string& name : options.only) {
    if (FindMutant(name) == nullptr) {
      std::cerr << "durasim: unknown mutant \"" << name << "\"; see `durasim mutants-list`\n";
      return 2;
    }
  }
  std::vector<Row> rows;
  auto run = [&](const Mutant* mutant) {
    rows.push_back(RunOne(options, mutant));
    const Row& row = rows.back();
    std::cout << fmt::format("mutants: {:<30} {:<11} after {} seeds, {:.2f} s{}\n", row.mutant, Outcome(row),
                             row.seeds_run, row.sweep_s,
                             row.failed ? fmt::format(" [{}]", fmt::join(row.caught_by, ",")) : "")
              << std::flush;
  };
  if (!options.skip_production) run(nullptr);
  for (const Mutant* mutant : mutants) run(mutant);

  if (!options.report_json_path.empty()) {
    const Status written = WriteFile(options.report_json_path, ToJson(rows, options).dump(2) + "\n");
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }
  std::cout << Matrix(rows, options);
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const Row& row) { return row.ok; });
  if (!all_ok) std::cout << "mutants: FAILED: a mutant survived or was caught by another invariant, or the production code failed\n";
  return all_ok ? 0 : 1;
}

}  // namespace durasim
