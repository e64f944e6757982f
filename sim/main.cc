// durasim: the command-line entry point.
//
//   durasim run PATH... [--mutant NAME] [--trace] [--report-json FILE]
//                       [--backend model|mock|kafka] [--bootstrap-servers HOST:PORT]
//                       [--compare-model] [--check-determinism]
//   durasim explore --seeds N [--seed-start S] [--jobs J] [--shard I/N] [--mutant M]
//                   [--time-budget-s T] [--failures-dir D] [--junit FILE] [--report-json FILE]
//                   [--check-determinism] [--require-coverage] [BACKEND]
//   durasim replay --seed S [--mutant M] [--trace] [--write FILE] [BACKEND]
//     BACKEND: [--backend model|mock|kafka] [--bootstrap-servers HOST:PORT] [--compare-model]
//   durasim merge-reports --out FILE REPORT...
//   durasim mutants-list
//   durasim mutants [--seeds N] [--seed-start S] [--jobs J] [--report-json FILE] [--failures-dir D]
//                   [--shrink-budget-s T] [--mutant M]...
//
// Exit status of run and replay: 0 when every run's verdict matched its
// expectation, 1 when some did not, 2 on a usage or input error. explore:
// see explore/sweep.h (1 violation, 3 liveness, 4 determinism, 5 error,
// 6 coverage).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "sim/explore/merge_reports.h"
#include "sim/explore/mutants_command.h"
#include "sim/explore/sweep.h"
#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "model/scenario.h"
#include "sim/scenario_writer.h"

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace durasim;

constexpr int kExitNotAsExpected = 1;

// Scenario files named by the arguments: files as given, folders searched
// recursively for *.yaml, sorted. scenarios/malformed/ holds deliberately
// broken files for the parser tests and is skipped when a folder is given.
Result<std::vector<std::string>> CollectScenarioFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
           it.increment(error)) {
        if (it->is_directory() && it->path().filename() == "malformed") {
          it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file() && it->path().extension() == ".yaml") found.push_back(it->path().string());
      }
      if (error) return Status(StatusCode::kInvalidArgument, path + ": " + error.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, error)) {
      files.push_back(path);
    } else {
      return Status(StatusCode::kInvalidArgument, path + ": no such file or folder");
    }
  }
  if (files.empty()) return Status(StatusCode::kInvalidArgument, "no scenario files (*.yaml) found");
  return files;
}

// How a run is reported and compared.
struct RunFlags {
  bool print_trace = false;
  std::string report_json;
};

int RunCommand(const std::vector<std::string>& paths, const RunOptions& options, const RunFlags& flags) {
  const bool print_trace = flags.print_trace;
  const std::string& report_json = flags.report_json;
  Result<std::vector<std::string>> files = CollectScenarioFiles(paths);
  if (!files.ok()) {
    std::cerr << "durasim: " << files.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<Scenario> scenarios;
  bool input_error = false;
  for (const std::string& file : *files) {
    Result<Scenario> scenario = LoadScenarioFile(file);
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      input_error = true;
      continue;
    }
    scenarios.push_back(std::move(scenario).value());
  }
  if (input_error) return kExitUsage;
  std::vector<RunReport> reports;
  for (const Scenario& scenario : scenarios) {
    RunReport report = RunScenario(scenario, options);
    if (print_trace) {
      std::cout << "trace of " << report.scenario << ":\n";
      for (const std::string& line : report.trace) std::cout << "  " << line << "\n";
    }
    reports.push_back(std::move(report));
  }
  // Written before anything else can go wrong: a failing run is never lost.
  if (!report_json.empty()) {
    const Status written = WriteFile(report_json, RenderJson(reports));
    if (!written.ok()) {
      std::cerr << "durasim: " << written.message() << "\n";
      return kExitUsage;
    }
  }
  std::cout << RenderTable(reports);
  const bool all_ok = std::all_of(reports.begin(), reports.end(), [](const RunReport& r) { return r.ok; });
  return all_ok ? 0 : kExitNotAsExpected;
}

int ReplayCommand(uint64_t seed, const RunOptions& options, bool print_trace, const std::string& write_path) {
  Generated generated = GenerateFromSeed(seed);
  std::cout << "seed " << seed << " swarm: " << generated.swarm.Describe() << "\n";
  if (!write_path.empty()) {
    Scenario written = generated.scenario;
    written.mutant = options.mutant;
    const Status status = WriteFile(write_path, WriteScenarioYaml(written, {fmt::format("generated by durasim replay --seed {}", seed)}));
    if (!status.ok()) {
      std::cerr << "durasim: " << status.message() << "\n";
      return kExitUsage;
    }
  }
  RunReport report = RunScenario(generated.scenario, options);
  if (print_trace) {
    for (const std::string& line : report.trace) std::cout << "  " << line << "\n";
  }
  std::cout << RenderTable({report});
  return report.ok ? 0 : kExitNotAsExpected;
}

// --backend, --bootstrap-servers and --compare-model, for run, explore and
// replay.
void AddBackendOptions(CLI::App& command, std::string& backend, std::string& bootstrap_servers, bool& compare_model) {
  command.add_option("--backend", backend,
                     "log backend: model (in-memory), mock (librdkafka's mock cluster), kafka (a real broker)")
      ->check(CLI::IsMember({"model", "mock", "kafka"}));
  command.add_option("--bootstrap-servers", bootstrap_servers, "the broker for --backend kafka");
  command.add_flag("--compare-model", compare_model,
                   "also run on the model; any different observation, down to the trace, is a failure");
}

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"durasim: deterministic simulation and fault injection for durable action state in Kafka"};
  app.require_subcommand(1);

  RunOptions options;
  std::vector<std::string> paths;
  std::string mutant;
  std::string report_json;
  bool print_trace = false;
  CLI::App* run = app.add_subcommand("run", "run scenario files or folders of them");
  run->add_option("paths", paths, "scenario files or folders")->required();
  run->add_option("--mutant", mutant, "run with this known-buggy variant (see `durasim mutants-list`)");
  AddBackendOptions(*run, options.backend, options.bootstrap_servers, options.compare_model);
  RunFlags run_flags;
  run->add_flag("--trace", print_trace, "print every run's trace");
  run->add_option("--report-json", report_json, "write a JSON report to this file");
  run->add_flag("--check-determinism", options.check_determinism, "run every scenario twice and compare traces");

  SweepOptions sweep;
  std::string shard = "0/1";
  std::string explore_mutant;
  CLI::App* explore = app.add_subcommand("explore", "generate scenarios from seeds, inject faults, check invariants");
  explore->add_option("--seeds", sweep.seeds, "number of seeds")->check(CLI::PositiveNumber);
  explore->add_option("--seed-start", sweep.seed_start, "first seed");
  explore->add_option("--jobs", sweep.jobs, "worker threads")->check(CLI::Range(1, 256));
  explore->add_option("--shard", shard, "run shard I of N (I/N): seeds with (seed - start) % N == I");
  explore->add_option("--mutant", explore_mutant, "explore with this known-buggy variant");
  AddBackendOptions(*explore, sweep.backend, sweep.bootstrap_servers, sweep.compare_model);
  explore->add_option("--time-budget-s", sweep.time_budget_s, "stop starting seeds after this many seconds");
  explore->add_option("--failures-dir", sweep.failures_dir, "where failing scenarios are written");
  explore->add_option("--junit", sweep.junit_path, "write a JUnit XML report");
  explore->add_option("--report-json", sweep.report_json_path, "write a JSON report");
  explore->add_flag("--check-determinism", sweep.check_determinism, "run every seed twice (default: every 16th)");
  explore->add_flag("--require-coverage", sweep.require_coverage, "fail when a fault kind never fired");
  explore->add_option("--shrink-budget-s", sweep.shrink_budget_s, "wall time to shrink one failure");

  uint64_t replay_seed = 0;
  std::string replay_mutant;
  std::string replay_write;
  bool replay_trace = false;
  CLI::App* replay = app.add_subcommand("replay", "run the scenario generated from one explore seed");
  replay->add_option("--seed", replay_seed, "the seed")->required();
  replay->add_option("--mutant", replay_mutant, "with this mutant");
  replay->add_flag("--trace", replay_trace, "print the trace");
  replay->add_option("--write", replay_write, "also write the generated scenario to this file");
  RunOptions replay_options;
  AddBackendOptions(*replay, replay_options.backend, replay_options.bootstrap_servers, replay_options.compare_model);

  std::string merge_out;
  std::vector<std::string> merge_in;
  bool merge_coverage = false;
  CLI::App* merge = app.add_subcommand("merge-reports", "merge the JSON reports of explore shards");
  merge->add_option("--out", merge_out, "merged report")->required();
  merge->add_option("reports", merge_in, "shard reports")->required();
  merge->add_flag("--require-coverage", merge_coverage, "fail when a fault kind never fired in any shard");

  CLI::App* list = app.add_subcommand("mutants-list", "list the registered mutants");

  MutantsOptions mutants_options;
  CLI::App* mutants = app.add_subcommand("mutants", "the kill matrix: explore with every mutant until it is caught");
  mutants->add_option("--seeds", mutants_options.seeds, "seed budget per mutant")->check(CLI::PositiveNumber);
  mutants->add_option("--seed-start", mutants_options.seed_start, "first seed");
  mutants->add_option("--jobs", mutants_options.jobs, "worker threads")->check(CLI::Range(1, 256));
  mutants->add_option("--report-json", mutants_options.report_json_path, "write the kill matrix as JSON");
  mutants->add_option("--failures-dir", mutants_options.failures_dir, "where shrunk failing scenarios are written");
  mutants->add_option("--shrink-budget-s", mutants_options.shrink_budget_s, "wall time to shrink one failure");
  mutants->add_option("--mutant", mutants_options.only, "only these mutants (repeatable)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }
  if (run->parsed()) {
    if (!mutant.empty()) {
      if (FindMutant(mutant) == nullptr) {
        std::cerr << "durasim: unknown mutant \"" << mutant << "\"; see `durasim mutants-list`\n";
        return kExitUsage;
      }
      options.mutant = mutant;
    }
    run_flags.print_trace = print_trace;
    run_flags.report_json = report_json;
    return RunCommand(paths, options, run_flags);
  }
  auto check_mutant = [](const std::string& name) {
    if (name.empty() || FindMutant(name) != nullptr) return true;
    std::cerr << "durasim: unknown mutant \"" << name << "\"; see `durasim mutants-list`\n";
    return false;
  };
  if (explore->parsed()) {
    if (!check_mutant(explore_mutant)) return kExitUsage;
    if (!explore_mutant.empty()) sweep.mutant = explore_mutant;
    if (!ParseShard(shard, sweep.shard_index, sweep.shard_count)) {
      std::cerr << "durasim: --shard expects I/N with 0 <= I < N, got \"" << shard << "\"\n";
      return kExitUsage;
    }
    sweep.progress_tty = isatty(STDOUT_FILENO) != 0;
    return RunSweep(sweep);
  }
  if (replay->parsed()) {
    if (!check_mutant(replay_mutant)) return kExitUsage;
    if (!replay_mutant.empty()) replay_options.mutant = replay_mutant;
    return ReplayCommand(replay_seed, replay_options, replay_trace, replay_write);
  }
  if (merge->parsed()) return MergeReports(merge_out, merge_in, merge_coverage);
  if (mutants->parsed()) return RunMutants(mutants_options);
  if (list->parsed()) {
    for (const Mutant& m : AllMutants()) {
      std::cout << m.name << "\n  " << m.description << "\n  from: " << m.origin
                << "\n  caught by: " << m.expected_invariant << "\n";
    }
  }
  return 0;
}
