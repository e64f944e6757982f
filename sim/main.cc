// durasim: the command-line entry point.
//
//   durasim run PATH... [--mutant NAME] [--trace] [--report-json FILE]
//                       [--backend model] [--check-determinism]
//   durasim mutants-list
//
// Exit status: 0 when every run's verdict matched its expectation, 1 when
// some did not, 2 on a usage or input error.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "properties/mutants/mutant.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/scenario.h"

namespace {

namespace fs = std::filesystem;
using namespace durasim;

constexpr int kExitNotAsExpected = 1;
constexpr int kExitUsage = 2;

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

int RunCommand(const std::vector<std::string>& paths, const RunOptions& options, bool print_trace,
               const std::string& report_json) {
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
  run->add_option("--backend", options.backend, "log backend: model")->check(CLI::IsMember({"model"}));
  run->add_flag("--trace", print_trace, "print every run's trace");
  run->add_option("--report-json", report_json, "write a JSON report to this file");
  run->add_flag("--check-determinism", options.check_determinism, "run every scenario twice and compare traces");

  CLI::App* list = app.add_subcommand("mutants-list", "list the registered mutants");

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
    return RunCommand(paths, options, print_trace, report_json);
  }
  if (list->parsed()) {
    for (const Mutant& m : AllMutants()) {
      std::cout << m.name << "\n  " << m.description << "\n  from: " << m.origin
                << "\n  caught by: " << m.expected_invariant << "\n";
    }
  }
  return 0;
}
