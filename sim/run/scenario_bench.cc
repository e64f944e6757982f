// scenario_bench: how many scenario runs per second durasim does, and the
// ratio of simulated time to wall time. A benchmark, not a test: it asserts
// nothing about speed; the figures go to docs/benchmarks.md.
//
// The wall clock lives here only; sim/ and model/ never read it.
//
//   scenario_bench [--runs N] [--mutant NAME] FILE
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>

#include "sim/exit_codes.h"
#include "sim/run/runner.h"
#include "model/scenario.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/wall_seconds.h"
#include "store/format.h"

int main(int argc, char** argv) {
  CLI::App app{"durasim scenario benchmark"};
  std::string path;
  int runs = 2000;
  std::string mutant;
  app.add_option("file", path, "scenario file")->required();
  app.add_option("--runs", runs, "number of runs")->check(CLI::PositiveNumber);
  app.add_option("--mutant", mutant, "run with this mutant");
  CLI11_PARSE(app, argc, argv);

  durasim::Result<durasim::Scenario> scenario = durasim::LoadScenarioFile(path);
  if (!scenario.ok()) {
    std::cerr << scenario.status().message() << "\n";
    return durasim::kExitUsage;
  }
  durasim::RunOptions options;
  if (!mutant.empty()) options.mutant = mutant;

  // One warm-up run, also the reference for the trace hash.
  const durasim::RunReport first = durasim::RunScenario(*scenario, options);
  const auto start = std::chrono::steady_clock::now();
  int64_t sim_us = 0;
  int mismatched = 0;
  for (int i = 0; i < runs; ++i) {
    const durasim::RunReport report = durasim::RunScenario(*scenario, options);
    sim_us += report.sim_time.count();
    if (report.trace_hash != first.trace_hash) ++mismatched;
  }
  const double wall_s = durasim::WallSecondsSince(start);
  std::cout << fmt::format("scenario {}: {} runs in {:.3f} s wall = {:.0f} runs/s; simulated {:.3f} s = {:.1f}x wall; "
                           "verdict {}; trace hash {:016x}; runs with another hash: {}\n",
                           scenario->name, runs, wall_s, runs / wall_s, sim_us / 1e6, (sim_us / 1e6) / wall_s,
                           NameOf(first.verdict), first.trace_hash, mismatched);
  return mismatched == 0 ? 0 : 1;
}
