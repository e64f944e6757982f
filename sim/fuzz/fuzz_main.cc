// durasim_fuzz: the mutational fuzzer (docs/fuzzing.md).
//
//   durasim_fuzz [--target scenario,state,marker] [--seed S] [--first I] [--iterations N]
//                [--budget-s T] [--timeout-ms MS] [--memory-mb MB] [--findings DIR]
//                [--durasim PATH --cli-every K] [--known-limits FILE] [--no-seeds] [-v]
//   durasim_fuzz --target T --replay FILE
//
// Exits 0 when nothing was found, 1 when something was (each finding
// printed with its input and written to the findings folder), 2 on a usage
// error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <sstream>

#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/fuzz/fuzz_campaign.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

// The command line: the campaign's options and the flags that become them.
struct FuzzFlags {
  FuzzOptions options;
  std::string targets = "scenario,state,marker";
  std::string replay;
  bool no_seeds = false;
  std::vector<std::string> scenario_corpus = {SourceTree() + "/scenarios"};
  std::vector<std::string> state_corpus = {SourceTree() + "/sim/fuzz/corpus/state"};
  std::vector<std::string> marker_corpus = {SourceTree() + "/sim/fuzz/corpus/marker"};
};

void AddFlags(CLI::App& app, FuzzFlags& flags) {
  FuzzOptions& options = flags.options;
  options.known_limits = SourceTree() + "/sim/fuzz/known_limits.txt";
  app.add_option("--target", flags.targets, "comma-separated targets: scenario, state, marker")->capture_default_str();
  app.add_option("--seed", options.seed, "the campaign's seed")->capture_default_str();
  app.add_option("--first", options.first, "the first iteration")->capture_default_str();
  app.add_option("--iterations", options.iterations, "how many iterations")->capture_default_str();
  app.add_option("--budget-s", options.budget_s, "start no iteration after this many seconds (0: no budget)")
      ->capture_default_str();
  app.add_option("--timeout-ms", options.limits.timeout_ms, "per-input wall-time bound")->capture_default_str();
  app.add_option("--memory-mb", options.limits.memory_mb, "per-input resident-memory bound")->capture_default_str();
  app.add_option("--findings", options.findings_dir, "where findings are written")->capture_default_str();
  app.add_option("--work-dir", options.work_dir, "scratch files (default: the findings folder)");
  app.add_option("--durasim", options.durasim, "the durasim binary: check scenario mutants through `durasim run`");
  app.add_option("--cli-every", options.cli_every, "check every k-th scenario mutant through the CLI (0: none)")
      ->capture_default_str();
  app.add_option("--known-limits", options.known_limits, "inputs kept out of the check (\"\" for none)")
      ->capture_default_str();
  app.add_option("--max-findings", options.max_findings, "stop after this many findings")->capture_default_str();
  app.add_option("--scenario-corpus", flags.scenario_corpus, "seed folders or files of the scenario target");
  app.add_option("--state-corpus", flags.state_corpus, "seed folders or files of the state target");
  app.add_option("--marker-corpus", flags.marker_corpus, "seed folders or files of the marker target");
  app.add_option("--max-nesting", options.mutator.max_nesting, "deepest nesting a mutation inserts")
      ->capture_default_str();
  app.add_option("--plant", options.plant, "tests of the fuzzer: crash or hang in every input")
      ->check(CLI::IsMember({"crash", "hang"}));
  app.add_flag("--no-seeds", flags.no_seeds, "do not run the corpus inputs unmutated first");
  app.add_option("--replay", flags.replay, "run this one file against --target (one target) and report");
  app.add_flag("-v,--verbose", options.verbose, "print every iteration");
  options.progress_every = 1000;
  app.add_option("--progress-every", options.progress_every, "a progress line every this many iterations (0: none)")
      ->capture_default_str();
}

// Turns the parsed flags into the campaign's options; the exit code of a
// usage error when they do not make one.
std::optional<int> ResolveFlags(FuzzFlags& flags) {
  FuzzOptions& options = flags.options;
  options.targets.clear();
  std::stringstream names(flags.targets);
  for (std::string name; std::getline(names, name, ',');) {
    const std::optional<FuzzTarget> target = ParseFuzzTarget(name);
    if (!target) {
      std::cerr << "durasim_fuzz: unknown target \"" << name << "\" (scenario, state, marker)\n";
      return kExitUsage;
    }
    options.targets.push_back(*target);
  }
  if (options.targets.empty()) {
    std::cerr << "durasim_fuzz: --target names no target\n";
    return kExitUsage;
  }
  if (options.limits.timeout_ms < 1 || options.limits.memory_mb < 1) {
    std::cerr << "durasim_fuzz: --timeout-ms and --memory-mb must be at least 1\n";
    return kExitUsage;
  }
  options.check_seeds = !flags.no_seeds;
  options.corpus_dirs[FuzzTarget::kScenario] = flags.scenario_corpus;
  options.corpus_dirs[FuzzTarget::kState] = flags.state_corpus;
  options.corpus_dirs[FuzzTarget::kMarker] = flags.marker_corpus;
  if (options.cli_every > 0 && options.durasim.empty()) {
    std::cerr << "durasim_fuzz: --cli-every needs --durasim PATH\n";
    return kExitUsage;
  }
  if (!flags.replay.empty() && options.targets.size() != 1) {
    std::cerr << "durasim_fuzz: --replay needs one --target\n";
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace
}  // namespace durasim

int main(int argc, char** argv) {
  using namespace durasim;
  CLI::App app{"durasim_fuzz: mutational fuzzing of the scenario parser and runner, the state record decoder and "
               "the recovery marker checks"};
  FuzzFlags flags;
  AddFlags(app, flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (const std::optional<int> usage = ResolveFlags(flags)) return *usage;
  // A signal stops the campaign within a poll of its child: the summary is
  // printed, and the exit is 128 + the signal.
  InstallInterruptHandlers();
  flags.options.limits.stop_requested = &Interrupted;
  const FuzzOptions& options = flags.options;
  if (!flags.replay.empty()) {
    return ReplayFile(options.targets[0], flags.replay, options, std::cout) ? kExitNotAsExpected : kExitOk;
  }
  const FuzzSummary summary = RunCampaign(options, std::cout);
  std::cout << RenderSummary(summary, options) << std::flush;
  if (Interrupted()) return InterruptExitCode();
  return summary.findings > 0 ? kExitNotAsExpected : kExitOk;
}
