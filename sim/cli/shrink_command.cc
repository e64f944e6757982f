// `durasim shrink FILE` (sim/cli/shrink_command.h).
#include "sim/cli/shrink_command.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/explore/failure_file.h"
#include "sim/interrupt.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

bool StartsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::string FirstMessage(const RunReport& report) {
  return !report.violations.empty() ? report.violations.front().message : report.error;
}

}  // namespace

std::vector<std::string> KeptHeaderLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && StartsWith(line, "#")) {
    std::string body = line.substr(StartsWith(line, "# ") ? 2 : 1);
    if (StartsWith(body, "first violation:") || StartsWith(body, "shrunk") || StartsWith(body, "not shrunk")) continue;
    lines.push_back(std::move(body));
  }
  return lines;
}

namespace {

// The header the shrunk file `out` keeps: the original file's comment lines
// (KeptHeaderLines), and the commands that confirm `failure` when it has none.
std::vector<std::string> ShrunkFileHeader(const ShrinkCommandOptions& options, const Scenario& scenario,
                                          const ExpectedVerdict& failure, const std::string& out) {
  std::ifstream in(options.path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> header = KeptHeaderLines(text.str());
  const bool has_commands = std::any_of(header.begin(), header.end(),
                                        [](const std::string& line) { return StartsWith(line, "confirm the failure:"); });
  if (!has_commands) {
    const std::optional<std::string> mutant = options.run.mutant ? options.run.mutant : scenario.mutant;
    for (std::string& line : ExpectationLines(out, mutant, failure, BackendFlags(options.run))) {
      header.push_back(std::move(line));
    }
  }
  return header;
}

}  // namespace

int RunShrinkCommand(const ShrinkCommandOptions& options) {
  Result<Scenario> loaded = LoadScenarioFile(options.path);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return kExitUsage;
  }
  const Scenario& scenario = *loaded;
  const RunReport before = RunScenario(scenario, options.run);
  if (Interrupted()) {  // the run may have been abandoned midway: nothing to shrink from
    std::cerr << fmt::format("durasim: {}: not shrunk: interrupted by {}\n", options.path, InterruptName());
    return InterruptExitCode();
  }
  if (before.verdict == Verdict::kInfra) {
    std::cerr << fmt::format("durasim: {}: not shrunk: the run is infra (not judged): {}\n", options.path, before.error);
    return kExitInfra;
  }
  const ExpectedVerdict expected = scenario.expect.verdict;
  ExpectedVerdict failure;
  if (expected.kind() == ExpectedVerdict::Kind::kPass && !before.ok &&
      FiledUnder(before).kind() == ExpectedVerdict::Kind::kPass) {
    // Not as expected only by its outputs or counts: the shrinker keeps a
    // candidate by its verdict, and every verdict here is a pass.
    std::cerr << fmt::format("durasim: {}: cannot shrink: it passes as a verdict and fails only by its expectation "
                             "({}); shrinking keeps a failing verdict\n",
                             options.path, before.mismatches.empty() ? "" : before.mismatches.front());
    return kExitUsage;
  }
  if (expected.kind() == ExpectedVerdict::Kind::kPass && !before.ok) {
    failure = FiledUnder(before);  // a bug's regression file: keep it failing
  } else if (expected.kind() != ExpectedVerdict::Kind::kPass && before.ok) {
    failure = expected;  // a kill file: keep showing what it expects
  } else {
    std::cerr << fmt::format(
        "durasim: {}: nothing to shrink: {}\n", options.path,
        before.ok ? "it passes as expected" : fmt::format("it expects {} and does not show it", expected.name()));
    return kExitUsage;
  }
  // Both branches above keep a failure: a pass is nothing to shrink toward.
  DURASIM_CHECK(failure.kind() != ExpectedVerdict::Kind::kPass);

  const std::string out = options.out.empty() ? options.path : options.out;
  std::vector<std::string> header = ShrunkFileHeader(options, scenario, failure, out);
  const auto start = std::chrono::steady_clock::now();
  const ShrinkResult shrunk = ShrinkFailure(scenario, options.run, failure, options.budget_s);
  const double wall_s = WallSecondsSince(start);
  const RunReport after = RunScenario(shrunk.scenario, options.run);
  header.push_back(fmt::format("shrunk by durasim shrink: {} candidates tried, {} kept{}; {} attempts, {} inputs "
                               "(from {} attempts, {} inputs)",
                               shrunk.candidates_tried, shrunk.candidates_kept,
                               !shrunk.budget_exhausted ? ""
                               : Interrupted()          ? ", interrupted"
                               : !shrunk.infra.empty()  ? ", stopped by an infrastructure failure: " + shrunk.infra
                                                        : ", budget exhausted",
                               shrunk.scenario.attempts.size(), shrunk.scenario.inputs.size(),
                               scenario.attempts.size(), scenario.inputs.size()));
  // After an infrastructure failure the shrunk file's run says nothing.
  header.push_back(FirstViolationLine(after.verdict == Verdict::kInfra ? FirstMessage(before) : FirstMessage(after)));
  const Status written = WriteFailureFile(out, shrunk.scenario, header);
  std::cout << fmt::format("shrink: {}: {} kept failing; {} attempts, {} inputs -> {} attempts, {} inputs; {} of {} "
                           "candidates kept in {:.2f} s{}\n",
                           options.path, failure.name(), scenario.attempts.size(), scenario.inputs.size(),
                           shrunk.scenario.attempts.size(), shrunk.scenario.inputs.size(), shrunk.candidates_kept,
                           shrunk.candidates_tried, wall_s, written.ok() ? " -> " + out : "; NOT WRITTEN: " + out)
            << std::flush;
  if (Interrupted()) return InterruptExitCode();
  if (!written.ok()) return kExitOutput;
  return shrunk.infra.empty() ? kExitOk : kExitInfra;
}

Command AddShrinkCommand(CLI::App& app) {
  auto options = std::make_shared<ShrinkCommandOptions>();
  CLI::App& shrink = *app.add_subcommand("shrink", "shrink a failing scenario file, keeping its failure");
  shrink.add_option("file", options->path, "the failing scenario file")->required();
  shrink.add_option("--out", options->out, "write the shrunk file here (default: replace the file)");
  shrink.add_option("--shrink-budget-s", options->budget_s, "wall time to shrink")->check(Seconds());
  AddBackendOptions(shrink, options->run.backend, options->run.bootstrap_servers, options->run.compare_model,
                    options->run.broker_check_s, options->run.infra_errors_max, options->cpu_pin);
  return {&shrink, [options] {
            PinCommandThread(options->run.backend, options->cpu_pin);
            if (const std::optional<int> stop = CheckBackendAtStart(InfraOptionsOf(options->run))) return *stop;
            return RunShrinkCommand(*options);
          }};
}

}  // namespace durasim
