// `durasim mutants --scenarios` implementation.
#include "sim/explore/scenario_kill_matrix.h"

#include <fmt/ranges.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "properties/mutants/mutant.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/output_file.h"
#include "sim/view/report.h"
#include "sim/run/runner.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// How a file's run under a mutant differs from what the file expects: the
// violated invariants, or the verdict.
std::string HowCaught(const RunReport& report) {
  std::vector<std::string> invariants;
  for (const Violation& v : report.violations) {
    const std::string name = NameOf(v.invariant);
    if (std::find(invariants.begin(), invariants.end(), name) == invariants.end()) invariants.push_back(name);
  }
  if (!invariants.empty()) return fmt::format("{}", fmt::join(invariants, ","));
  return NameOf(report.verdict);
}

struct Catch {
  std::string path;
  std::string how;  // the invariants (or verdict) that differed; "negative file" for its own mutant's file
};

RunReport RunUnder(const Scenario& scenario, const std::optional<std::string>& mutant) {
  RunOptions options;
  options.mutant = mutant;
  return RunScenario(scenario, options);
}

// The mutants the matrix covers: every one, or those `options.only` names.
std::vector<const Mutant*> SelectedMutants(const ScenarioKillOptions& options) {
  std::vector<const Mutant*> mutants;
  for (const Mutant& m : AllMutants()) {
    const bool asked =
        options.only.empty() || std::find(options.only.begin(), options.only.end(), m.name) != options.only.end();
    if (asked && (!options.store || m.AppliesTo(*options.store))) mutants.push_back(&m);
  }
  return mutants;
}

// Per mutant, the usable files that catch it; stops early when interrupted.
std::vector<std::vector<Catch>> CatchesByMutant(const ScenarioKillOptions& options,
                                                const std::vector<const Mutant*>& mutants,
                                                const std::vector<bool>& usable) {
  DURASIM_CHECK_EQ(usable.size(), options.files.size());
  std::vector<std::vector<Catch>> caught(mutants.size());
  for (size_t m = 0; m < mutants.size() && !Interrupted(); ++m) {
    for (size_t i = 0; i < options.files.size(); ++i) {
      const auto& [path, scenario] = options.files[i];
      if (!usable[i]) continue;
      if (scenario.mutant) {
        // A negative file speaks for its own mutant only; its baseline run
        // was that mutant's, and showed what the file expects.
        if (*scenario.mutant == mutants[m]->name) caught[m].push_back(Catch{path, "its negative file"});
        continue;
      }
      // A mutant of another design runs nothing of its own on this file.
      if (!mutants[m]->AppliesTo(scenario.store)) continue;
      const RunReport report = RunUnder(scenario, mutants[m]->name);
      if (Interrupted()) break;  // the run may have been abandoned: no catch, and no further file
      if (!report.ok) caught[m].push_back(Catch{path, HowCaught(report)});
    }
    DURASIM_CHECK_LE(caught[m].size(), options.files.size());  // each file catches a mutant once at most
  }
  return caught;
}

}  // namespace

int RunScenarioKillMatrix(const ScenarioKillOptions& options) {
  const std::vector<const Mutant*> mutants = SelectedMutants(options);
  // The baseline: each file on the code it names.
  std::vector<bool> usable(options.files.size(), false);
  std::vector<std::string> broken;
  size_t production_files = 0;
  for (size_t i = 0; i < options.files.size() && !Interrupted(); ++i) {
    const auto& [path, scenario] = options.files[i];
    const RunReport baseline = RunUnder(scenario, scenario.mutant);
    if (Interrupted()) break;  // abandoned midway: neither usable nor broken
    usable[i] = baseline.ok;
    if (!baseline.ok) broken.push_back(fmt::format("{} (expected {}, got {})", path, scenario.expect.verdict.name(),
                                                   HowCaught(baseline)));
    if (!scenario.mutant) ++production_files;
  }
  DURASIM_CHECK_LE(production_files, options.files.size());  // the negative count below is their difference
  const std::vector<std::vector<Catch>> caught = CatchesByMutant(options, mutants, usable);
  std::cout << fmt::format("scenario kill matrix: {} files ({} expect of the production code, {} negative), {} "
                           "mutants\n\n",
                           options.files.size(), production_files, options.files.size() - production_files,
                           mutants.size());
  std::cout << fmt::format("{:<40} {:<7} {}\n", "mutant", "caught", "by (files; how)");
  std::vector<std::string> missed;
  nlohmann::json rows = nlohmann::json::array();
  for (size_t m = 0; m < mutants.size(); ++m) {
    const std::vector<Catch>& by = caught[m];
    if (by.empty()) missed.push_back(mutants[m]->name);
    std::vector<std::string> shown;
    for (size_t c = 0; c < by.size() && c < 3; ++c) shown.push_back(fmt::format("{} [{}]", by[c].path, by[c].how));
    std::cout << fmt::format("{:<40} {:<7} {}{}\n", mutants[m]->name, by.empty() ? "NO" : "yes",
                             by.empty() ? "no file" : fmt::format("{} files: {}", by.size(), fmt::join(shown, ", ")),
                             by.size() > 3 ? ", ..." : "");
    nlohmann::json files = nlohmann::json::array();
    for (const Catch& c : by) files.push_back({{"path", c.path}, {"how", c.how}});
    rows.push_back({{"mutant", mutants[m]->name}, {"caught", !by.empty()}, {"files", files}});
  }
  DURASIM_CHECK_LE(missed.size(), mutants.size());
  std::cout << fmt::format("\ncaught {} of {} mutants; missed: {}\n", mutants.size() - missed.size(), mutants.size(),
                           missed.empty() ? "none" : fmt::format("{}", fmt::join(missed, ", ")));
  for (const std::string& b : broken) std::cout << "not as expected on its own code (catches nothing): " << b << "\n";
  const bool interrupted = Interrupted();
  int exit_code = missed.empty() && broken.empty() ? kExitOk : kExitNotAsExpected;
  if (!options.report_json_path.empty()) {
    const nlohmann::json doc = {{"files", options.files.size()},
                                {"mutants", rows},
                                {"missed", missed},
                                {"not_as_expected", broken},
                                {"interrupted", interrupted}};
    if (Status written = WriteFile(options.report_json_path, DumpJson(doc)); !written.ok()) {
      std::cerr << "durasim: could not write " << options.report_json_path << ": " << written.ToString() << "\n";
      if (exit_code == kExitOk) exit_code = kExitOutput;
    } else {
      std::cout << "report: " << options.report_json_path << "\n";
    }
  }
  std::cout.flush();
  if (interrupted) return InterruptExitCode();
  return exit_code;
}

}  // namespace durasim
