// `durasim mutants` implementation.
#include "sim/explore/mutants_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "sim/explore/shrink.h"
#include "sim/explore/sweep.h"
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
  uint64_t seed = 0;     // the killing seed, or the first failing one when none kills
  uint64_t seeds_run = 0;
  std::vector<std::string> caught_by;  // invariants of that seed
  std::string message;
  std::string earlier;  // a failure by other invariants before the kill: "seed N [inv,...]"
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
      fmt::format("Found by `durasim mutants`: explore seed {} was the first (after {} seeds) to fail with {}; shrunk "
                  "to {} attempts, {} inputs{}.",
                  row.seed, row.seeds_run, invariant, row.attempts, row.inputs,
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

bool Has(const std::vector<std::string>& invariants, const std::string& invariant) {
  return std::find(invariants.begin(), invariants.end(), invariant) != invariants.end();
}

// Sweeps from the options' first seed until a seed fails with the mutant's
// expected invariant (for the production code: until any seed fails), or the
// budget ends. Failures by other invariants on the way are noted, and the
// sweep goes on after them.
Row RunOne(const MutantsOptions& options, const Mutant* mutant) {
  Row row;
  row.mutant = mutant != nullptr ? mutant->name : kProduction;
  row.expected = mutant != nullptr ? mutant->expected_invariant : "none";
  const uint64_t end = options.seed_start + options.seeds;  // one past the last seed
  uint64_t next = options.seed_start;
  std::optional<SeedResult> first;  // the first failure, whatever caught it
  std::optional<SeedResult> kill;   // the first failure by the expected invariant
  while (next < end && !kill.has_value()) {
    SweepOptions sweep;
    sweep.seeds = end - next;
    sweep.seed_start = next;
    sweep.jobs = options.jobs;
    if (mutant != nullptr) sweep.mutant = mutant->name;
    sweep.failures_dir = fmt::format("{}/sweeps/{}", options.failures_dir,
                                     mutant != nullptr ? mutant->name : std::string("production"));
    sweep.shrink_max = 0;  // the failing seed is shrunk below, whichever worker found it
    sweep.progress = false;
    sweep.stop_on_first_failure = true;
    const SweepResult result = SweepSeeds(sweep);
    row.sweep_s += result.wall_s;
    auto failed = std::find_if(result.seeds.begin(), result.seeds.end(),
                               [](const SeedResult& seed) { return seed.verdict != "pass"; });
    if (failed == result.seeds.end()) break;
    if (!first.has_value()) first = *failed;
    if (mutant == nullptr || Has(failed->invariants, mutant->expected_invariant)) kill = *failed;
    next = failed->seed + 1;
  }
  if (!first.has_value()) {
    row.seeds_run = options.seeds;
    row.ok = mutant == nullptr;
    return row;
  }
  row.failed = true;
  const SeedResult& shown = kill.has_value() ? *kill : *first;
  row.seed = shown.seed;
  row.seeds_run = kill.has_value() ? kill->seed - options.seed_start + 1 : options.seeds;
  row.caught_by = shown.invariants;
  if (row.caught_by.empty()) row.caught_by.push_back(FailureInvariant(shown));
  row.message = shown.message;
  if (first->seed != shown.seed) {
    row.earlier = fmt::format("seed {} [{}]", first->seed, fmt::join(first->invariants, ","));
  }
  row.ok = mutant != nullptr && kill.has_value();
  ShrinkAndWrite(options, mutant, row.ok ? mutant->expected_invariant : FailureInvariant(shown), row);
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
  out += fmt::format("{:<30} {:<11} {:<16} {:<26} {:>6} {:>8} {:>9}  {}\n", "mutant", "result", "expected",
                     "caught by", "seeds", "wall_s", "shrink_s", "shrunk (attempts/inputs/steps)");
  for (const Row& row : rows) {
    const std::string caught = row.failed ? fmt::format("{}", fmt::join(row.caught_by, ",")) : "-";
    const std::string shrunk =
        row.failed ? fmt::format("{}/{}/{}{}", row.attempts, row.inputs, row.steps, row.shrink_exhausted ? "*" : "")
                   : "-";
    out += fmt::format("{:<30} {:<11} {:<16} {:<26} {:>6} {:>8.2f} {:>9.2f}  {}\n", row.mutant, Outcome(row),
                       row.expected, caught, row.seeds_run, row.sweep_s, row.shrink_s, shrunk);
  }
  for (const Row& row : rows) {
    if (!row.earlier.empty()) {
      out += fmt::format("  {}: an earlier seed failed by other invariants only: {}\n", row.mutant, row.earlier);
    }
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
    if (!row.earlier.empty()) entry["earlier_failure"] = row.earlier;
    if (row.failed) {
      entry["failing_seed"] = row.seed;
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
