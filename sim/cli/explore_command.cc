// `durasim explore`: scenarios generated from seeds with swarm faults, swept
// by worker threads (sim/explore/sweep.h); --trace-failing runs each failing
// seed again after the summary and prints its trace.
#include <unistd.h>

#include <iostream>
#include <limits>

#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/explore/sweep.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

struct ExploreState {
  SweepOptions sweep;
  std::string shard = "0/1";
  std::string mutant;
  TraceFlags trace;
};

// "I/N" -> (I, N) with 0 <= I < N.
bool ParseShard(const std::string& text, int& index, int& count) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  try {
    index = std::stoi(text.substr(0, slash));
    count = std::stoi(text.substr(slash + 1));
  } catch (const std::exception&) {
    return false;
  }
  return count >= 1 && index >= 0 && index < count;
}

// Runs `seed` again as the sweep did and prints its trace.
void TraceSeed(const SeedResult& seed, const ExploreState& state) {
  RunOptions options;
  options.mutant = state.sweep.mutant;
  options.store = state.sweep.store;
  options.backend = state.sweep.backend;
  options.bootstrap_servers = state.sweep.bootstrap_servers;
  options.compare_model = state.sweep.compare_model;
  options.record_lines = true;
  const Generated generated = GenerateFromSeed(seed.seed, state.sweep.store, DrawableDesigns(state.sweep.mutant));
  const RunReport report = RunScenario(generated.scenario, options);
  TraceFlags flags = state.trace;
  flags.failing = false;  // the sweep judged it: print it
  flags.print = true;
  PrintTrace(report, generated.scenario, flags,
             fmt::format("trace of seed {} ({}{}):", seed.seed, NameOf(seed.verdict),
                         fmt::format("{:016x}", report.trace_hash) == seed.trace_hash
                             ? ""
                             : ", run again: its trace differs from the sweep's"));
  for (const Violation& v : report.violations) {
    std::cout << "  violation [" << NameOf(v.invariant) << "]: " << v.message << "\n";
  }
}

// --trace-failing: each failing seed again (a seed's run is the same
// whichever worker ran it), its trace after the summary; not after an
// interrupt or an infrastructure stop (each rerun would wait on it).
void TraceFailingSeeds(const SweepResult& result, const ExploreState& state) {
  if (result.interrupted || Interrupted() || !result.infra_stop.empty()) {
    std::cout << "--trace-failing: no traces (the sweep was stopped)\n";
    return;
  }
  constexpr size_t kTracedMax = 10;
  size_t traced = 0, failing = 0;
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == Verdict::kPass || seed.verdict == Verdict::kInfra) continue;
    if (++failing > kTracedMax) continue;
    TraceSeed(seed, state);
    ++traced;
  }
  if (failing > traced) std::cout << fmt::format("--trace-failing: {} more failing seeds not traced\n", failing - traced);
}

int Explore(ExploreState& state) {
  if (!KnownMutant(state.mutant) || !MutantAppliesToStore(state.mutant, state.sweep.store)) return kExitUsage;
  if (!state.mutant.empty()) state.sweep.mutant = state.mutant;
  if (!ParseShard(state.shard, state.sweep.shard_index, state.sweep.shard_count)) {
    std::cerr << "durasim: --shard expects I/N with 0 <= I < N, got \"" << state.shard << "\"\n";
    return kExitUsage;
  }
  DURASIM_CHECK_GE(state.sweep.seeds, uint64_t{1});  // WholeNumber(1) on --seeds: seeds - 1 does not wrap
  if (state.sweep.seeds - 1 > std::numeric_limits<uint64_t>::max() - state.sweep.seed_start) {
    std::cerr << fmt::format("durasim: --seed-start {} with --seeds {} runs past the last seed, {}\n",
                             state.sweep.seed_start, state.sweep.seeds, std::numeric_limits<uint64_t>::max());
    return kExitUsage;
  }
  state.sweep.progress_tty = isatty(STDOUT_FILENO) != 0;
  const SweepOptions& sweep = state.sweep;
  if (sweep.backend == BackendKind::kFluss && sweep.store != StoreDesign::kFluss) {
    std::cerr << "durasim: --backend fluss needs --store fluss: " << kFlussBackendOnly << "\n";
    return kExitUsage;
  }
  if (const std::optional<int> stop = CheckBackendAtStart(
          InfraOptions{sweep.backend, sweep.bootstrap_servers, sweep.broker_check_s, sweep.infra_errors_max})) {
    return *stop;
  }
  if (!state.trace.failing) {
    if (state.trace.filter.any() || state.trace.print || state.trace.raw) {
      std::cerr << "durasim: explore prints traces only with --trace-failing (the filters and --trace-raw shape "
                   "those traces)\n";
      return kExitUsage;
    }
    return RunSweep(state.sweep);
  }
  return RunSweep(state.sweep, [&state](const SweepResult& result) { TraceFailingSeeds(result, state); });
}

}  // namespace

Command AddExploreCommand(CLI::App& app) {
  auto state = std::make_shared<ExploreState>();
  CLI::App& explore = *app.add_subcommand("explore", "generate scenarios from seeds, inject faults, check invariants");
  SweepOptions& sweep = state->sweep;
  explore.add_option("--seeds", sweep.seeds, "number of seeds")->check(WholeNumber(1, "a count of seeds"));
  explore.add_option("--seed-start", sweep.seed_start, "first seed")->check(WholeNumber(0, "a seed"));
  explore.add_option("--jobs", sweep.jobs, "worker threads")->check(Jobs());
  explore.add_option("--shard", state->shard, "run shard I of N (I/N): seeds with (seed - start) % N == I");
  explore.add_option("--mutant", state->mutant, "explore with this known-buggy variant");
  AddStoreOption(explore, sweep.store, "every seed with this store design (default: each seed draws one)");
  AddBackendOptions(explore, sweep.backend, sweep.bootstrap_servers, sweep.compare_model, sweep.broker_check_s,
                    sweep.infra_errors_max, sweep.cpu_pin);
  explore.add_option("--time-budget-s", sweep.time_budget_s, "stop starting seeds after this many seconds (0: none)")
      ->check(Seconds());
  explore.add_option("--failures-dir", sweep.failures_dir, "where failing scenarios are written");
  explore.add_option("--junit", sweep.junit_path, "write a JUnit XML report");
  explore.add_option("--report-json", sweep.report_json_path, "write a JSON report");
  explore.add_flag("--check-determinism", sweep.check_determinism, "run every seed twice (default: every 16th)");
  explore.add_flag("--require-coverage", sweep.require_coverage, "fail when a fault kind never fired");
  explore.add_option("--require-pairs", sweep.require_pairs,
                     "fail when a pair of coverage points that can meet was hit together by fewer seeds")
      ->check(WholeNumber(0, "a count of seeds"));
  explore.add_flag("--text-hash", sweep.text_hash, kTextHashHelp);
  explore.add_option("--shrink-budget-s", sweep.shrink_budget_s, "wall time to shrink one failure")
      ->check(Seconds());
  AddTraceOptions(explore, state->trace, /*every_run=*/false);
  return {&explore, [state] { return Explore(*state); }};
}

}  // namespace durasim
