// `durasim mutants` implementation.
#include "sim/explore/kill_matrix.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/exit_codes.h"
#include "sim/explore/failure_file.h"
#include "sim/explore/sweep.h"
#include "sim/interrupt.h"
#include "sim/view/report.h"
#include "sim/view/timeline_recorder.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kProduction = "(production)";

// One line of the kill matrix.
struct Row {
  std::string mutant;    // kProduction for the production code
  std::optional<Invariant> expected;  // the invariant that must catch it; none for production
  bool failed = false;   // some seed failed
  bool ok = false;       // killed by `expected` (a mutant) or no failure at all (production)
  uint64_t seed = 0;     // the killing seed, or the first failing one when none kills
  uint64_t seeds_run = 0;
  std::vector<std::string> caught_by;  // invariants of that seed, or what it is filed under
  std::string message;
  std::string earlier;  // a failure by other invariants before the kill: "seed N [inv,...]"
  double sweep_s = 0;
  double shrink_s = 0;
  size_t attempts = 0;  // of the shrunk scenario
  size_t inputs = 0;
  size_t steps = 0;  // attempt steps, over all attempts
  bool shrink_exhausted = false;
  bool interrupted = false;  // SIGINT/SIGTERM stopped its sweep: no verdict
  std::string file;          // the shrunk failure, when written
  std::string unwritten;     // the shrunk failure's path, when it could not be written
  size_t sweep_unwritten = 0;  // the sweeps' own failure files that could not be written
};

ExpectedVerdict SeedFiledUnder(const SeedResult& seed) { return FiledUnder(seed.verdict, seed.invariants); }

std::string ExpectedName(const Row& row) { return row.expected ? NameOf(*row.expected) : "none"; }

// The kill's regression file: the shrunk failure, named after the mutant.
Scenario RegressionScenario(const Mutant* mutant, const ShrinkResult& shrunk, const std::string& file_name) {
  DURASIM_CHECK(file_name.ends_with(".yaml"));  // MutantScenarioFileName's, or the production's
  Scenario s = shrunk.scenario;
  s.name = file_name.substr(0, file_name.size() - std::string(".yaml").size());
  s.description = mutant != nullptr ? mutant->description : "the production code failed";
  return s;
}

// The design `mutant`'s seeds run on: --store's (RunMutants keeps only the
// mutants that apply to it), else the one design it is a hazard of, else
// none: each seed draws one (where a seed draws a design the mutant does not
// apply to, it runs the production parts).
std::optional<StoreDesign> DesignFor(const MutantsOptions& options, const Mutant* mutant) {
  if (options.store || mutant == nullptr) return options.store;
  if (mutant->designs.size() == 1) return mutant->designs.front();
  return std::nullopt;
}

// Shrinks the failing seed's scenario and writes it as a regression file.
void ShrinkAndWrite(const MutantsOptions& options, const Mutant* mutant, ExpectedVerdict filed, Row& row) {
  const Clock::time_point start = Clock::now();
  const std::optional<std::string> mutant_name =
      mutant != nullptr ? std::optional<std::string>(mutant->name) : std::nullopt;
  const Scenario failing = FailingScenario(GenerateFromSeed(row.seed, DesignFor(options, mutant), mutant != nullptr ? mutant->designs : std::vector<StoreDesign>{}).scenario, mutant_name, filed);
  RunOptions run_options;
  run_options.mutant = failing.mutant;
  const ShrinkResult shrunk = ShrinkFailure(failing, run_options, filed, options.shrink_budget_s);
  row.shrink_s = WallSecondsSince(start);
  const std::string file_name = mutant != nullptr ? MutantScenarioFileName(mutant->name) : "production_failure.yaml";
  const Scenario s = RegressionScenario(mutant, shrunk, file_name);
  row.attempts = s.attempts.size();
  row.inputs = s.inputs.size();
  for (const AttemptSpec& attempt : s.attempts) row.steps += attempt.steps.size();
  row.shrink_exhausted = shrunk.budget_exhausted;

  const std::string who = mutant != nullptr ? "mutant " + mutant->name : "the production code";
  std::vector<std::string> header = {
      mutant != nullptr ? fmt::format("Strategy: {} must be caught by {}: {}.", who, filed.name(), s.description)
                        : fmt::format("Strategy: the production code violated {}.", filed.name()),
      fmt::format("Found by `durasim mutants`: explore seed {} was the first (after {} seeds) to fail with {}; shrunk "
                  "to {} attempts, {} inputs{}.",
                  row.seed, row.seeds_run, filed.name(), row.attempts, row.inputs,
                  shrunk.budget_exhausted ? " (shrink budget exhausted)" : ""),
      fmt::format("Invariant: {} ({}).", filed.name(),
                  mutant != nullptr ? "must be violated" : "violated by the production code: the file expects pass"),
  };
  if (mutant != nullptr) header.push_back(fmt::format("from: {}", mutant->origin));
  const std::string path = fmt::format("{}/{}", options.failures_dir, file_name);
  for (std::string& line : ExpectationLines(path, mutant_name, filed, "")) header.push_back(std::move(line));
  const std::optional<StoreDesign> design = DesignFor(options, mutant);
  header.push_back(ReplayLine(row.seed, mutant_name, design ? fmt::format(" --store {}", NameOf(*design)) : ""));
  // The first violation of the shrunk run, not of the generated one.
  const RunReport rerun = RunScenario(s, run_options);
  header.push_back(FirstViolationLine(!rerun.violations.empty() ? rerun.violations.front().message : rerun.error));
  if (WriteFailureFile(path, s, header).ok()) {
    row.file = path;
    // Its timeline beside it (sim/view/timeline_recorder.h); the file is what counts.
    if (const Status drawn = WriteTimeline(TimelinePathBeside(path), s, run_options); !drawn.ok()) {
      std::cerr << "durasim: " << drawn.message() << "\n";
    }
  } else {
    row.unwritten = path;
  }
}

bool Has(const std::vector<Invariant>& invariants, Invariant invariant) {
  return std::find(invariants.begin(), invariants.end(), invariant) != invariants.end();
}

// Sweeps from the options' first seed until a seed fails with the mutant's
// expected invariant (for the production code: until any seed fails), or the
// budget ends. Failures by other invariants on the way are noted, and the
// sweep goes on after them.
Row RunOne(const MutantsOptions& options, const Mutant* mutant) {
  Row row;
  row.mutant = mutant != nullptr ? mutant->name : kProduction;
  if (mutant != nullptr) row.expected = mutant->ExpectedOn(DesignFor(options, mutant));
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
    sweep.store = DesignFor(options, mutant);
    sweep.failures_dir = fmt::format("{}/sweeps/{}", options.failures_dir,
                                     mutant != nullptr ? mutant->name : std::string("production"));
    sweep.shrink_max = 0;  // the failing seed is shrunk below, whichever worker found it
    sweep.progress = false;
    sweep.stop_on_first_failure = true;
    const SweepResult result = SweepSeeds(sweep);
    row.sweep_s += result.wall_s;
    row.sweep_unwritten += result.unwritten.size();
    DURASIM_CHECK_LE(result.seeds.size(), sweep.seeds);  // a sweep reports no seed it was not given
    if (result.interrupted) {
      row.interrupted = true;
      row.seeds_run = next - options.seed_start + result.seeds.size();
      return row;
    }
    auto failed = std::find_if(result.seeds.begin(), result.seeds.end(),
                               [](const SeedResult& seed) { return seed.verdict != Verdict::kPass; });
    if (failed == result.seeds.end()) break;
    // A failure of the seeds swept: `next` moves forward, so the loop ends.
    DURASIM_CHECK(failed->seed >= next && failed->seed < end);
    if (!first.has_value()) first = *failed;
    if (mutant == nullptr || Has(failed->invariants, *row.expected)) kill = *failed;
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
  DURASIM_CHECK_LE(row.seeds_run, options.seeds);
  for (Invariant invariant : shown.invariants) row.caught_by.emplace_back(NameOf(invariant));
  if (row.caught_by.empty()) row.caught_by.emplace_back(SeedFiledUnder(shown).name());
  DURASIM_CHECK(shown.verdict != Verdict::kPass);  // the sweeps stop only at a failure
  row.message = shown.message;
  if (first->seed != shown.seed) {
    std::vector<std::string> names;
    for (Invariant invariant : first->invariants) names.emplace_back(NameOf(invariant));
    row.earlier = fmt::format("seed {} [{}]", first->seed, fmt::join(names, ","));
  }
  row.ok = mutant != nullptr && kill.has_value();
  const ExpectedVerdict filed = row.ok ? ExpectedVerdict::Violated(*row.expected) : SeedFiledUnder(shown);
  ShrinkAndWrite(options, mutant, filed, row);
  return row;
}

std::string Outcome(const Row& row) {
  if (row.interrupted) return "INTERRUPTED";
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
                       ExpectedName(row), caught, row.seeds_run, row.sweep_s, row.shrink_s, shrunk);
  }
  for (const Row& row : rows) {
    if (!row.earlier.empty()) {
      out += fmt::format("  {}: an earlier seed failed by other invariants only: {}\n", row.mutant, row.earlier);
    }
  }
  for (const Row& row : rows) {
    if (!row.file.empty()) out += fmt::format("  {}: {}\n", row.mutant, row.file);
    if (!row.unwritten.empty()) out += fmt::format("  {}: NOT WRITTEN: {}\n", row.mutant, row.unwritten);
    if (row.sweep_unwritten > 0) {
      out += fmt::format("  {}: NOT WRITTEN: {} failure files of its sweep (their scenarios went to stderr)\n",
                         row.mutant, row.sweep_unwritten);
    }
  }
  return out;
}

nlohmann::json ToJson(const std::vector<Row>& rows, const MutantsOptions& options) {
  nlohmann::json out = nlohmann::json::array();
  for (const Row& row : rows) {
    nlohmann::json entry = {{"mutant", row.mutant},
                            {"result", Outcome(row)},
                            {"ok", row.ok},
                            {"expected_invariant", ExpectedName(row)},
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
                         {"file", row.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.file)}};
    }
    out.push_back(std::move(entry));
  }
  return {{"seed_start", options.seed_start},
          {"seeds", options.seeds},
          {"jobs", options.jobs},
          {"interrupted", Interrupted()},
          {"rows", out}};
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
    const bool asked = options.only.empty() ||
                       std::find(options.only.begin(), options.only.end(), mutant.name) != options.only.end();
    // Another design's hazard changes nothing on --store's design.
    const bool applies = !options.store || mutant.AppliesTo(*options.store);
    if (asked && applies) mutants.push_back(&mutant);
  }
  for (const std::string& name : options.only) {
    const Mutant* mutant = FindMutant(name);
    if (mutant == nullptr) {
      std::cerr << "durasim: unknown mutant \"" << name << "\"; see `durasim mutants-list`\n";
      return kExitUsage;
    }
    if (const std::optional<std::string> why = options.store ? WhyNotOn(*mutant, *options.store) : std::nullopt) {
      std::cerr << "durasim: " << *why << " (--store)\n";
      return kExitUsage;
    }
  }
  std::vector<Row> rows;
  auto run = [&](const Mutant* mutant) {
    if (Interrupted()) return;  // no new mutant starts
    rows.push_back(RunOne(options, mutant));
    const Row& row = rows.back();
    std::cout << fmt::format("mutants: {:<30} {:<11} after {} seeds, {:.2f} s{}\n", row.mutant, Outcome(row),
                             row.seeds_run, row.sweep_s,
                             row.failed ? fmt::format(" [{}]", fmt::join(row.caught_by, ",")) : "")
              << std::flush;
  };
  if (!options.skip_production) run(nullptr);
  for (const Mutant* mutant : mutants) run(mutant);
  DURASIM_CHECK_LE(rows.size(), mutants.size() + (options.skip_production ? 0 : 1));  // one row per run at most

  bool unwritten = std::any_of(rows.begin(), rows.end(),
                               [](const Row& row) { return !row.unwritten.empty() || row.sweep_unwritten > 0; });
  if (!options.report_json_path.empty()) {
    const Status written = WriteFile(options.report_json_path, DumpJson(ToJson(rows, options)));
    if (!written.ok()) {
      std::cerr << "durasim: " << written.message() << "\n";
      unwritten = true;
    }
  }
  std::cout << Matrix(rows, options);
  if (Interrupted()) {
    std::cout << fmt::format("mutants: interrupted by {}: {} of {} rows ran\n", InterruptName(), rows.size(),
                             mutants.size() + (options.skip_production ? 0 : 1))
              << std::flush;
    return InterruptExitCode();
  }
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const Row& row) { return row.ok; });
  if (!all_ok) std::cout << "mutants: FAILED: a mutant survived or was caught by another invariant, or the production code failed\n";
  std::cout << std::flush;
  if (!all_ok) return kExitNotAsExpected;
  return unwritten ? kExitOutput : kExitOk;
}

}  // namespace durasim
