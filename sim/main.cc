// durasim: the command-line entry point.
//
//   durasim run PATH... [--mutant NAME] [--trace] [--report-json FILE] [--junit FILE]
//                       [TRACE] [--filter TEXT] [--fail-fast] [--keep-topic NAME]
//                       [--backend model|mock|kafka] [--bootstrap-servers HOST:PORT]
//                       [--compare-model] [--check-determinism]
//                       [--perturb N [--jobs J] [--failures-dir D] [--shrink-budget-s T] | --perturb-seed S]
//                       [--timeline OUT.svg|OUT.html] [--dump-log]
//   durasim explore --seeds N [--seed-start S] [--jobs J] [--shard I/N] [--mutant M]
//                   [--time-budget-s T] [--failures-dir D] [--junit FILE] [--report-json FILE]
//                   [--check-determinism] [--require-coverage] [BACKEND]
//   durasim replay --seed S [--mutant M] [--trace] [TRACE] [--write FILE] [BACKEND]
//     BACKEND: [--backend model|mock|kafka] [--bootstrap-servers HOST:PORT] [--compare-model]
//              [--broker-check-s T] [--infra-errors-max N]
//     TRACE: [--trace-raw] [--trace-failing] [--trace-key K] [--trace-attempt N] [--trace-subtask S]
//            (explore takes --trace-failing and the filters)
//   durasim shrink FILE [--out FILE] [--shrink-budget-s T] [BACKEND]
//   durasim merge-reports --out FILE REPORT...
//   durasim mutants-list
//   durasim inspect --bootstrap-servers HOST:PORT --topic T [--marker JSON|@FILE]
//   durasim mutants [--seeds N] [--seed-start S] [--jobs J] [--report-json FILE] [--failures-dir D]
//                   [--shrink-budget-s T] [--mutant M]...
//
// Exit status (sim/exit_codes.h) of run and replay: 0 when every run's
// verdict matched its expectation, 1 when some did not, 2 on a usage or
// input error. explore: 1 violation, 3 liveness, 4 determinism, 5 error,
// 6 coverage. Any command: 7 when an output it was asked for could not be
// written (and nothing else failed); 8 on mock or kafka when the broker did
// not answer the check at the start, or runs ended infra (the broker failed:
// docs/backends.md) and nothing else failed; 130 / 143 when SIGINT / SIGTERM
// stopped it (the reports are written, marked interrupted).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <fmt/ranges.h>
#include <limits>
#include <filesystem>
#include <iostream>

#include "sim/exit_codes.h"
#include "sim/perturb.h"
#include "sim/explore/merge_reports.h"
#include "sim/explore/failure_file.h"
#include "sim/explore/interrupt.h"
#include "sim/explore/mutants_command.h"
#include "sim/explore/scenario_kill_matrix.h"
#include "sim/explore/shrink_command.h"
#include "sim/explore/sweep.h"
#include "sim/infra_guard.h"
#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "model/scenario.h"
#include "sim/scenario_writer.h"
#include "sim/scenario_parser.h"
#include "sim/inspect_command.h"
#include "sim/suggest.h"
#include "sim/trace_view.h"
#include "sim/timeline_recorder.h"
#include "sim/timeline_svg.h"
#include "store/rdkafka_log.h"

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace durasim;

// Scenario files named by the arguments: files as given, folders searched
// recursively for *.yaml and *.yml, sorted. scenarios/malformed/ holds deliberately
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
        const fs::path extension = it->path().extension();
        if (it->is_regular_file() && (extension == ".yaml" || extension == ".yml")) {
          found.push_back(it->path().string());
        }
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
  if (files.empty()) return Status(StatusCode::kInvalidArgument, "no scenario files (*.yaml, *.yml) found");
  return files;
}

// Which traces are printed and how (sim/trace_view.h).
struct TraceFlags {
  bool print = false;    // --trace
  bool raw = false;      // --trace-raw: the lines exactly as rendered
  bool failing = false;  // --trace-failing: only runs that were not as expected
  TraceFilter filter;
  // A filter alone asks for the trace it filters.
  bool wanted() const { return print || raw || failing || filter.any(); }
};

// Prints `report`'s trace as `flags` ask (nothing for a run that was as
// expected under --trace-failing).
void PrintTrace(const RunReport& report, const Scenario& scenario, const TraceFlags& flags, const std::string& title) {
  if (!flags.wanted() || (flags.failing && report.ok)) return;
  if (!title.empty()) std::cout << title << "\n";
  if (flags.raw && !flags.filter.any()) {
    for (size_t i = 0; i < report.trace.size(); ++i) std::cout << "  " << report.trace.line(i) << "\n";
    return;
  }
  for (const std::string& line : ReadableTrace(report, scenario, flags.filter)) std::cout << "  " << line << "\n";
}

// After `run --keep-topic`: where the topic is and each completed
// checkpoint's marker, as `durasim inspect` reads them.
void PrintKeptTopic(const RunReport& report, const RunOptions& options) {
  std::cout << fmt::format("kept topic {} on {}: build/durasim inspect --bootstrap-servers {} --topic {}\n",
                           options.keep_topic, options.bootstrap_servers, options.bootstrap_servers,
                           options.keep_topic);
  for (const auto& [id, json] : report.checkpoint_markers) {
    std::cout << fmt::format("checkpoint {} marker: {}\n", id, json);
  }
}

// --trace, --trace-raw (`every_run`), --trace-failing and the filters, for
// run and replay; explore has no --trace or --trace-raw (thousands of runs).
void AddTraceOptions(CLI::App& command, TraceFlags& flags, bool every_run = true) {
  if (every_run) {
    command.add_flag("--trace", flags.print,
                     "print every run's trace, readable: event numbers (the #N violations cite), action and event "
                     "names, what each record holds");
    command.add_flag("--trace-raw", flags.raw,
                     "print the trace lines exactly as rendered (FNV-1a over them is --text-hash's trace_text_hash)");
  }
  command.add_flag("--trace-failing", flags.failing, "print the trace only of runs that were not as expected");
  command.add_option_function<std::string>(
      "--trace-key", [&flags](const std::string& key) { flags.filter.key = key; },
      "print only the trace lines of this input key (and those that name no key)");
  command.add_option_function<int>(
      "--trace-attempt", [&flags](int attempt) { flags.filter.attempt = attempt; },
      "print only the trace lines of this attempt (1-based)")
      ->check(CLI::Range(1, 1'000'000));
  command.add_option_function<int32_t>(
      "--trace-subtask", [&flags](int32_t subtask) { flags.filter.subtask = subtask; },
      "print only the trace lines of this subtask (by the owner of a line's key in its attempt)")
      ->check(CLI::Range(0, 1'000'000));
}

// How a run is reported and compared.
struct RunFlags {
  TraceFlags trace;
  std::string report_json;
  std::string junit;
  std::string filter;  // only files whose path contains it
  bool fail_fast = false;
  PerturbOptions perturb;               // --perturb N (schedules > 0): sim/perturb.h
  std::optional<uint64_t> perturb_seed;  // --perturb-seed S: one perturbed schedule
  std::string timeline;                  // --timeline OUT.svg|OUT.html (sim/timeline_layout.h)
  bool dump_log = false;                 // --dump-log: every partition's records after each attempt
};

// The files whose path contains `filter` (all when it is empty).
std::vector<std::string> Filtered(const std::vector<std::string>& files, const std::string& filter) {
  if (filter.empty()) return files;
  std::vector<std::string> kept;
  for (const std::string& file : files) {
    if (file.find(filter) != std::string::npos) kept.push_back(file);
  }
  return kept;
}

// Writes `contents` to `path` (when asked for); a failure is named on stderr
// and counted in `unwritten`.
void WriteReport(const std::string& path, const std::string& contents, std::vector<std::string>& unwritten) {
  if (path.empty()) return;
  const Status written = WriteFile(path, contents);
  if (written.ok()) return;
  std::cerr << "durasim: " << written.message() << "\n";
  unwritten.push_back(path);
}

int RunCommand(const std::vector<std::string>& paths, const RunOptions& run_options, const RunFlags& flags) {
  const auto start = std::chrono::steady_clock::now();
  RunOptions options = run_options;
  options.record_lines = flags.trace.wanted();  // the readable trace shows what each record holds
  Result<std::vector<std::string>> collected = CollectScenarioFiles(paths);
  if (!collected.ok()) {
    std::cerr << "durasim: " << collected.status().message() << "\n";
    return kExitUsage;
  }
  const std::vector<std::string> files = Filtered(*collected, flags.filter);
  if (files.empty()) {
    std::cerr << "durasim: no scenario file's path contains \"" << flags.filter << "\" (--filter)\n";
    return kExitUsage;
  }
  std::vector<Scenario> scenarios;
  bool input_error = false;
  for (const std::string& file : files) {
    Result<Scenario> scenario = LoadScenarioFile(file);
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      input_error = true;
      continue;
    }
    scenarios.push_back(std::move(scenario).value());
  }
  if (input_error) return kExitUsage;
  if (!options.keep_topic.empty() && (options.backend != BackendKind::kKafka || scenarios.size() != 1 ||
                                      flags.perturb.schedules > 0 || options.check_determinism)) {
    std::cerr << "durasim: --keep-topic names the topic of one run on a real broker: one scenario file with "
                 "--backend kafka, without --perturb or --check-determinism\n";
    return kExitUsage;
  }
  if (flags.perturb.schedules > 0) {
    PerturbOptions perturb = flags.perturb;
    if (flags.trace.failing) {
      perturb.on_failure = [&flags](const Scenario& scenario, const RunReport& report) {
        PrintTrace(report, scenario, flags.trace, "  trace of this schedule:");
      };
    }
    if (flags.trace.print || flags.trace.raw || !flags.report_json.empty() || !flags.junit.empty() ||
        !flags.timeline.empty() || flags.dump_log) {
      std::cerr << "durasim: --perturb writes each schedule that fails as a scenario file; for a trace or a JSON "
                   "report run one schedule with --perturb-seed S\n";
      return kExitUsage;
    }
    return PerturbCommand(scenarios, options, perturb);
  }
  if (flags.perturb_seed) {
    for (Scenario& scenario : scenarios) scenario.perturb_seed = flags.perturb_seed;
  }
  if (!flags.timeline.empty() && !flags.timeline.ends_with(".svg") && !flags.timeline.ends_with(".html") &&
      !flags.timeline.ends_with(".htm")) {
    std::cerr << "durasim: --timeline writes SVG (.svg) or a self-contained HTML page (.html, .htm), not '"
              << flags.timeline << "'\n";
    return kExitUsage;
  }
  if (!flags.timeline.empty() && scenarios.size() != 1) {
    std::cerr << "durasim: --timeline draws one run: give one scenario file, not " << scenarios.size() << "\n";
    return kExitUsage;
  }
  std::vector<RunReport> reports;
  std::vector<std::string> unwritten;
  size_t skipped = 0;
  InfraGuard guard(InfraOptionsOf(options));
  for (const Scenario& scenario : scenarios) {
    // No new run starts after an interrupt, infrastructure failures in a row
    // (sim/infra_guard.h) or (--fail-fast) a failed one; an infra run is no
    // failure of the store.
    if (Interrupted() || guard.stopped() ||
        (flags.fail_fast && !reports.empty() && !reports.back().ok && reports.back().verdict != Verdict::kInfra)) {
      ++skipped;
      continue;
    }
    const std::optional<std::string> refused = guard.BeforeRun();
    const bool recorded = !refused && (!flags.timeline.empty() || flags.dump_log);
    RecordedRun run = recorded ? RunRecorded(scenario, options, flags.dump_log)
                               : RecordedRun{refused ? NotRunReport(scenario, options, *refused)
                                                     : RunScenario(scenario, options)};
    RunReport& report = run.report;
    guard.AfterRun(report.verdict, report.error);
    const bool infra = report.verdict == Verdict::kInfra;
    if (infra && (flags.trace.wanted() || flags.dump_log || !flags.timeline.empty())) {
      // Not the store's run: nothing of it to show (docs/backends.md).
      std::cout << report.scenario << ": infra, not traced, no log, no timeline: " << report.error << "\n";
    }
    if (!infra) PrintTrace(report, scenario, flags.trace, "trace of " + report.scenario + ":");
    if (!options.keep_topic.empty() && !infra) PrintKeptTopic(report, options);
    if (flags.dump_log && !infra) std::cout << "log of " << report.scenario << ":\n" << run.log_dump;
    if (!flags.timeline.empty() && recorded && !infra) {
      WriteReport(flags.timeline, RenderTimelineFor(flags.timeline, LayOutTimeline(run.timeline), run.timeline.title),
                  unwritten);
      if (std::find(unwritten.begin(), unwritten.end(), flags.timeline) == unwritten.end()) {
        std::cout << "timeline: " << flags.timeline << "\n";
      }
    } else if (!flags.timeline.empty()) {
      unwritten.push_back(flags.timeline);  // the run was infra: nothing of the store's to draw
    }
    reports.push_back(std::move(report));
  }
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Written before anything else can go wrong: a failing run is never lost.
  WriteReport(flags.report_json, RenderJson(reports, Interrupted(), guard.stop_reason()), unwritten);
  const std::string reproduce_flags =
      (options.mutant ? " --mutant " + *options.mutant : "") + BackendFlags(options);
  WriteReport(flags.junit, RenderJunit(reports, reproduce_flags, wall_s), unwritten);
  std::cout << RenderTable(reports);
  if (skipped > 0) {
    std::cout << fmt::format("{}: {} of {} scenario files not run\n",
                             Interrupted()     ? std::string("interrupted by ") + InterruptName()
                             : guard.stopped() ? "stopped: " + guard.stop_reason()
                                               : std::string("--fail-fast"),
                             skipped, scenarios.size());
  }
  for (const std::string& path : unwritten) std::cout << "NOT WRITTEN: " << path << "\n";
  std::cout << std::flush;
  if (Interrupted()) return InterruptExitCode();
  const bool all_ok = std::all_of(reports.begin(), reports.end(),
                                  [](const RunReport& r) { return r.ok || r.verdict == Verdict::kInfra; });
  if (!all_ok) return kExitNotAsExpected;
  if (guard.infra_runs() > 0) return kExitInfra;
  return unwritten.empty() ? kExitOk : kExitOutput;
}

// Runs the scenario of `seed`; with --write, writes it down by the rule of
// failure files (sim/explore/failure_file.h): a failure of the production
// code expects pass (the file fails until the bug is fixed), a mutant's
// failure expects what it showed; a passing run expects pass.
int ReplayCommand(uint64_t seed, const RunOptions& replay_options, const TraceFlags& trace,
                  const std::string& write_path) {
  Generated generated = GenerateFromSeed(seed);
  std::cout << "seed " << seed << " swarm: " << generated.swarm.Describe() << "\n";
  RunOptions options = replay_options;
  options.record_lines = trace.wanted();
  RunReport report = RunScenario(generated.scenario, options);
  PrintTrace(report, generated.scenario, trace, "");
  std::cout << RenderTable({report});
  if (report.verdict == Verdict::kInfra) {
    // Not the store's failure: nothing to write down.
    if (!write_path.empty()) std::cout << "not written: " << write_path << " (the run is infra: not judged)\n";
    std::cout << std::flush;
    return kExitInfra;
  }
  bool unwritten = false;
  if (!write_path.empty()) {
    const std::string backend_flags = BackendFlags(options);
    std::vector<std::string> header = {fmt::format("generated by durasim replay --seed {}{}{} --write", seed,
                                                   options.mutant ? " --mutant " + *options.mutant : "",
                                                   backend_flags)};
    Scenario written = generated.scenario;
    written.mutant = options.mutant;
    if (!report.ok) {
      const ExpectedVerdict failure = FiledUnder(report);
      written = FailingScenario(generated.scenario, options.mutant, failure);
      for (std::string& line : ExpectationLines(write_path, options.mutant, failure, backend_flags)) {
        header.push_back(std::move(line));
      }
      header.push_back(FirstViolationLine(!report.violations.empty() ? report.violations.front().message : report.error));
      header.push_back(fmt::format("not shrunk: build/durasim shrink {}", write_path));
    }
    unwritten = !WriteFailureFile(write_path, written, header).ok();
    if (!unwritten) std::cout << "written: " << write_path << "\n";
  }
  std::cout << std::flush;
  if (!report.ok) return kExitNotAsExpected;
  return unwritten ? kExitOutput : kExitOk;
}

// "log backend: model (in-memory), mock (...), kafka (...)".
std::string BackendHelp() {
  std::string list;
  for (BackendKind kind : AllOf<BackendKind>()) {
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", NameOf(kind), DescriptionOf(kind));
  }
  return "log backend: " + list;
}

CLI::Validator Seconds();

// --backend, --bootstrap-servers, --compare-model, --broker-check-s and
// --infra-errors-max, for run, explore, replay and shrink.
void AddBackendOptions(CLI::App& command, BackendKind& backend, std::string& bootstrap_servers, bool& compare_model,
                       double& broker_check_s, int& infra_errors_max) {
  command
      .add_option_function<std::string>(
          "--backend", [&backend](const std::string& name) { backend = ParseName<BackendKind>(name).value(); },
          BackendHelp())
      ->check(CLI::IsMember(NamesOf<BackendKind>()))
      ->default_str(NameOf(backend));
  command.add_option("--bootstrap-servers", bootstrap_servers, "the broker for --backend kafka");
  command.add_flag("--compare-model", compare_model,
                   "also run on the model; any different observation, down to the trace, is a failure");
  command
      .add_option("--broker-check-s", broker_check_s,
                  "mock and kafka: how long the broker may take to answer the check at the start (and after a run "
                  "ended infra, before the next); 0: no checks")
      ->check(Seconds());
  command
      .add_option("--infra-errors-max", infra_errors_max,
                  "mock and kafka: stop after this many runs in a row ended infra (the broker failed); 0: never stop")
      ->check(CLI::Range(0, 1'000'000));
}

// The broker check at the start of a command (sim/infra_guard.h): nothing
// when the command may go on, else its exit code (a usage error for kafka
// without bootstrap servers; infra when the broker does not answer).
std::optional<int> CheckBackendAtStart(const InfraOptions& options) {
  const Status checked = CheckBrokerAtStart(options);
  if (checked.ok()) return std::nullopt;
  std::cerr << "durasim: " << checked.message() << "\n";
  if (checked.code() == StatusCode::kInvalidArgument) return kExitUsage;
  std::cerr << fmt::format("durasim: nothing ran: the broker did not pass the check at the start (exit {}; "
                           "--broker-check-s sets its deadline, 0 skips it)\n",
                           kExitInfra);
  return kExitInfra;
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

// A whole number >= `minimum` (a seed, a count), with errors in words: a
// negative number is rejected, never wrapped to 2^64 - 1, and a range is
// never printed as its 300-digit limits.
CLI::Validator WholeNumber(uint64_t minimum, const std::string& what) {  // what: "a seed", "a count"
  return CLI::Validator(
      [minimum, what](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          if (!text.empty() && text[0] == '-') return fmt::format("cannot be negative, got {}", text);
          return fmt::format("{} is a whole number, got \"{}\"", what, text);
        }
        uint64_t value = 0;
        try {
          value = std::stoull(text);
        } catch (const std::exception&) {
          return fmt::format("must be at most 2^64 - 1, got {}", text);
        }
        if (value < minimum) return fmt::format("must be at least {}, got {}", minimum, text);
        return "";
      },
      minimum == 0 ? "N>=0" : fmt::format("N>={}", minimum));
}

// Jobs: 1..256 worker threads.
CLI::Validator Jobs() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        int value = 0;
        try {
          size_t used = 0;
          value = std::stoi(text, &used);
          if (used != text.size()) value = 0;
        } catch (const std::exception&) {
          value = 0;
        }
        if (value < 1 || value > 256) return fmt::format("takes 1 to 256 worker threads, got {}", text);
        return "";
      },
      "1..256");
}

// Seconds: a non-negative number.
CLI::Validator Seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          size_t used = 0;
          const double value = std::stod(text, &used);
          if (used == text.size() && value >= 0) return "";
        } catch (const std::exception&) {
        }
        return fmt::format("takes seconds (0 or more), got {}", text);
      },
      "SECONDS");
}

// Every subcommand and the values its flags set.
struct Cli {
  CLI::App app{"durasim: deterministic simulation and fault injection for durable action state in Kafka"};
  bool verbose = false;

  CLI::App* run = nullptr;
  RunOptions run_options;
  std::vector<std::string> paths;
  std::string run_mutant;
  RunFlags run_flags;

  CLI::App* explore = nullptr;
  SweepOptions sweep;
  std::string shard = "0/1";
  std::string explore_mutant;
  TraceFlags explore_trace;

  CLI::App* replay = nullptr;
  RunOptions replay_options;
  uint64_t replay_seed = 0;
  std::string replay_mutant;
  std::string replay_write;
  TraceFlags replay_trace;

  CLI::App* shrink = nullptr;
  ShrinkCommandOptions shrink_options;

  CLI::App* merge = nullptr;
  std::string merge_out;
  std::vector<std::string> merge_in;
  bool merge_coverage = false;

  CLI::App* list = nullptr;

  CLI::App* inspect = nullptr;
  InspectOptions inspect_options;
  int64_t inspect_deadline_ms = 10'000;

  CLI::App* mutants = nullptr;
  MutantsOptions mutants_options;
  std::vector<std::string> mutants_scenarios;  // --scenarios: the kill matrix over these files instead
};

constexpr const char* kTextHashHelp =
    "also report each run's trace_text_hash in the JSON report: FNV-1a over its trace text, the trace hash of "
    "builds before trace format 2 (renders every line: slower; for ci/compare-traces.sh)";

void AddRun(Cli& cli) {
  cli.run = cli.app.add_subcommand("run", "run scenario files or folders of them");
  CLI::App& run = *cli.run;
  run.add_option("paths", cli.paths, "scenario files or folders (*.yaml, *.yml)")->required();
  run.add_option("--mutant", cli.run_mutant, "run with this known-buggy variant (see `durasim mutants-list`)");
  AddBackendOptions(run, cli.run_options.backend, cli.run_options.bootstrap_servers, cli.run_options.compare_model,
                    cli.run_options.broker_check_s, cli.run_options.infra_errors_max);
  AddTraceOptions(run, cli.run_flags.trace);
  run.add_option("--report-json", cli.run_flags.report_json, "write a JSON report to this file");
  run.add_option("--junit", cli.run_flags.junit, "write a JUnit XML report: one test case per scenario file");
  run.add_option("--filter", cli.run_flags.filter, "only the scenario files whose path contains this text");
  run.add_flag("--fail-fast", cli.run_flags.fail_fast, "start no further file after one is not as expected");
  run.add_option("--keep-topic", cli.run_options.keep_topic,
                 "--backend kafka: give the run's topic this name (one the broker does not hold) and print each "
                 "completed checkpoint's marker, for `durasim inspect`");
  run.add_flag("--check-determinism", cli.run_options.check_determinism, "run every scenario twice and compare traces");
  run.add_flag("--text-hash", cli.run_options.text_hash, kTextHashHelp);
  run.add_option("--timeline", cli.run_flags.timeline,
                 "draw the run's timeline to this file: SVG, or a self-contained HTML page for .html (one scenario file)");
  run.add_flag("--dump-log", cli.run_flags.dump_log, "print every partition's records, decoded, after each attempt");
  PerturbOptions& perturb = cli.run_flags.perturb;
  CLI::Option* schedules =
      run.add_option("--perturb", perturb.schedules,
                     "run every file under N perturbed schedules derived from its seed: (latency ranges, same-time "
                     "timer order); each must keep the file's expectation")
          ->check(CLI::Range(int64_t{1}, int64_t{1'000'000}));
  run.add_option("--perturb-seed", cli.run_flags.perturb_seed, "run the one perturbed schedule with this perturb seed")
      ->excludes(schedules);
  run.add_option("--jobs", perturb.jobs, "worker threads for --perturb")->check(CLI::Range(1, 256))->needs(schedules);
  run.add_option("--failures-dir", perturb.failures_dir, "where --perturb writes the schedules that failed")
      ->needs(schedules)
      ->capture_default_str();
  run.add_option("--shrink-budget-s", perturb.shrink_budget_s, "wall time to shrink one --perturb failure")
      ->needs(schedules)
      ->capture_default_str();
}

void AddExplore(Cli& cli) {
  cli.explore = cli.app.add_subcommand("explore", "generate scenarios from seeds, inject faults, check invariants");
  CLI::App& explore = *cli.explore;
  SweepOptions& sweep = cli.sweep;
  explore.add_option("--seeds", sweep.seeds, "number of seeds")->check(WholeNumber(1, "a count of seeds"));
  explore.add_option("--seed-start", sweep.seed_start, "first seed")->check(WholeNumber(0, "a seed"));
  explore.add_option("--jobs", sweep.jobs, "worker threads")->check(Jobs());
  explore.add_option("--shard", cli.shard, "run shard I of N (I/N): seeds with (seed - start) % N == I");
  explore.add_option("--mutant", cli.explore_mutant, "explore with this known-buggy variant");
  AddBackendOptions(explore, sweep.backend, sweep.bootstrap_servers, sweep.compare_model, sweep.broker_check_s,
                    sweep.infra_errors_max);
  explore.add_option("--time-budget-s", sweep.time_budget_s, "stop starting seeds after this many seconds (0: none)")
      ->check(Seconds());
  explore.add_option("--failures-dir", sweep.failures_dir, "where failing scenarios are written");
  explore.add_option("--junit", sweep.junit_path, "write a JUnit XML report");
  explore.add_option("--report-json", sweep.report_json_path, "write a JSON report");
  explore.add_flag("--check-determinism", sweep.check_determinism, "run every seed twice (default: every 16th)");
  explore.add_flag("--require-coverage", sweep.require_coverage, "fail when a fault kind never fired");
  explore.add_flag("--text-hash", sweep.text_hash, kTextHashHelp);
  explore.add_option("--shrink-budget-s", sweep.shrink_budget_s, "wall time to shrink one failure")
      ->check(Seconds());
  AddTraceOptions(explore, cli.explore_trace, /*every_run=*/false);
}

void AddReplay(Cli& cli) {
  cli.replay = cli.app.add_subcommand("replay", "run the scenario generated from one explore seed");
  CLI::App& replay = *cli.replay;
  replay.add_option("--seed", cli.replay_seed, "the seed")->required()->check(WholeNumber(0, "a seed"));
  replay.add_option("--mutant", cli.replay_mutant, "with this mutant");
  AddTraceOptions(replay, cli.replay_trace);
  replay.add_option("--write", cli.replay_write,
                    "also write the generated scenario to this file (a failure of the production code expects pass)");
  RunOptions& options = cli.replay_options;
  AddBackendOptions(replay, options.backend, options.bootstrap_servers, options.compare_model, options.broker_check_s,
                    options.infra_errors_max);
}

void AddShrink(Cli& cli) {
  cli.shrink = cli.app.add_subcommand("shrink", "shrink a failing scenario file, keeping its failure");
  CLI::App& shrink = *cli.shrink;
  ShrinkCommandOptions& options = cli.shrink_options;
  shrink.add_option("file", options.path, "the failing scenario file")->required();
  shrink.add_option("--out", options.out, "write the shrunk file here (default: replace the file)");
  shrink.add_option("--shrink-budget-s", options.budget_s, "wall time to shrink")->check(Seconds());
  AddBackendOptions(shrink, options.run.backend, options.run.bootstrap_servers, options.run.compare_model,
                    options.run.broker_check_s, options.run.infra_errors_max);
}

void AddMergeAndMutants(Cli& cli) {
  cli.merge = cli.app.add_subcommand("merge-reports", "merge the JSON reports of explore shards");
  cli.merge->add_option("--out", cli.merge_out, "merged report")->required();
  cli.merge->add_option("reports", cli.merge_in, "shard reports")->required();
  cli.merge->add_flag("--require-coverage", cli.merge_coverage, "fail when a fault kind never fired in any shard");

  cli.list = cli.app.add_subcommand("mutants-list", "list the registered mutants");

  cli.mutants = cli.app.add_subcommand("mutants", "the kill matrix: explore with every mutant until it is caught");
  CLI::App& mutants = *cli.mutants;
  MutantsOptions& options = cli.mutants_options;
  mutants.add_option("--seeds", options.seeds, "seed budget per mutant")->check(WholeNumber(1, "a count of seeds"));
  mutants.add_option("--seed-start", options.seed_start, "first seed")->check(WholeNumber(0, "a seed"));
  mutants.add_option("--jobs", options.jobs, "worker threads")->check(Jobs());
  mutants.add_option("--report-json", options.report_json_path, "write the kill matrix as JSON");
  mutants.add_option("--failures-dir", options.failures_dir, "where shrunk failing scenarios are written");
  mutants.add_option("--shrink-budget-s", options.shrink_budget_s, "wall time to shrink one failure")
      ->check(Seconds());
  mutants.add_option("--mutant", options.only, "only these mutants (repeatable)");
  mutants.add_option("--scenarios", cli.mutants_scenarios,
                     "run these scenario files or folders under every mutant instead of exploring seeds: which "
                     "mutants your own files catch (repeatable)");
}

void AddInspect(Cli& cli) {
  cli.inspect = cli.app.add_subcommand(
      "inspect", "decode a real action-state topic written by the store; with --marker, what a restore would read");
  CLI::App& inspect = *cli.inspect;
  InspectOptions& options = cli.inspect_options;
  inspect.add_option("--bootstrap-servers", options.bootstrap_servers, "the broker (HOST:PORT)")->required();
  inspect.add_option("--topic", options.topic, "the action-state topic")->required();
  inspect.add_option_function<std::string>(
      "--marker", [&options](const std::string& json) { options.marker_json = json; },
      "a recovery marker's JSON (as `run --keep-topic` prints it), or @FILE: run the store's rebuild from it and "
      "show what it reads, caches and treats as unfinished");
  inspect.add_option("--deadline-ms", cli.inspect_deadline_ms, "bound on each broker call")
      ->check(CLI::Range(int64_t{1}, int64_t{600'000}));
}

std::vector<std::string> MutantNames() {
  std::vector<std::string> names;
  for (const Mutant& m : AllMutants()) names.push_back(m.name);
  return names;
}

// An empty name (no --mutant) or a registered mutant's.
bool KnownMutant(const std::string& name) {
  if (name.empty() || FindMutant(name) != nullptr) return true;
  std::cerr << "durasim: unknown mutant \"" << name << "\"" << DidYouMean(name, MutantNames())
            << "; see `durasim mutants-list`\n";
  return false;
}

// `mutants --scenarios`: every file must parse (a file that does not is a
// usage error naming it).
int ScenarioKillMatrixCommand(const Cli& cli) {
  Result<std::vector<std::string>> files = CollectScenarioFiles(cli.mutants_scenarios);
  if (!files.ok()) {
    std::cerr << "durasim: " << files.status().message() << "\n";
    return kExitUsage;
  }
  ScenarioKillOptions options;
  options.only = cli.mutants_options.only;
  options.report_json_path = cli.mutants_options.report_json_path;
  for (const std::string& path : *files) {
    Result<Scenario> scenario = LoadScenarioFile(path);
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      return kExitUsage;
    }
    options.files.emplace_back(path, *std::move(scenario));
  }
  InstallInterruptHandlers();
  return RunScenarioKillMatrix(options);
}

int ExploreCommand(Cli& cli) {
  if (!KnownMutant(cli.explore_mutant)) return kExitUsage;
  if (!cli.explore_mutant.empty()) cli.sweep.mutant = cli.explore_mutant;
  if (!ParseShard(cli.shard, cli.sweep.shard_index, cli.sweep.shard_count)) {
    std::cerr << "durasim: --shard expects I/N with 0 <= I < N, got \"" << cli.shard << "\"\n";
    return kExitUsage;
  }
  if (cli.sweep.seeds - 1 > std::numeric_limits<uint64_t>::max() - cli.sweep.seed_start) {
    std::cerr << fmt::format("durasim: --seed-start {} with --seeds {} runs past the last seed, {}\n",
                             cli.sweep.seed_start, cli.sweep.seeds, std::numeric_limits<uint64_t>::max());
    return kExitUsage;
  }
  cli.sweep.progress_tty = isatty(STDOUT_FILENO) != 0;
  if (const std::optional<int> stop = CheckBackendAtStart(InfraOptions{cli.sweep.backend, cli.sweep.bootstrap_servers,
                                                                       cli.sweep.broker_check_s,
                                                                       cli.sweep.infra_errors_max})) {
    return *stop;
  }
  if (!cli.explore_trace.failing) {
    if (cli.explore_trace.filter.any() || cli.explore_trace.print || cli.explore_trace.raw) {
      std::cerr << "durasim: explore prints traces only with --trace-failing (the filters and --trace-raw shape "
                   "those traces)\n";
      return kExitUsage;
    }
    return RunSweep(cli.sweep);
  }
  // --trace-failing: each failing seed again (a seed's run is the same
  // whichever worker ran it), its trace after the summary; not after an
  // interrupt or an infrastructure stop (each rerun would wait on it).
  return RunSweep(cli.sweep, [&cli](const SweepResult& result) {
    if (result.interrupted || Interrupted() || !result.infra_stop.empty()) {
      std::cout << "--trace-failing: no traces (the sweep was stopped)\n";
      return;
    }
    constexpr size_t kTracedMax = 10;
    size_t traced = 0, failing = 0;
    for (const SeedResult& seed : result.seeds) {
      if (seed.verdict == Verdict::kPass || seed.verdict == Verdict::kInfra) continue;
      if (++failing > kTracedMax) continue;
      RunOptions options;
      options.mutant = cli.sweep.mutant;
      options.backend = cli.sweep.backend;
      options.bootstrap_servers = cli.sweep.bootstrap_servers;
      options.compare_model = cli.sweep.compare_model;
      options.record_lines = true;
      const Generated generated = GenerateFromSeed(seed.seed);
      const RunReport report = RunScenario(generated.scenario, options);
      TraceFlags flags = cli.explore_trace;
      flags.failing = false;  // the sweep judged it: print it
      flags.print = true;
      PrintTrace(report, generated.scenario, flags,
                 fmt::format("trace of seed {} ({}{}):", seed.seed, NameOf(seed.verdict),
                             fmt::format("{:016x}", report.trace_hash) == seed.trace_hash
                                 ? ""
                                 : ", run again: its trace differs from the sweep's"));
      for (const Violation& v : report.violations) std::cout << "  violation [" << NameOf(v.invariant) << "]: " << v.message << "\n";
      ++traced;
    }
    if (failing > traced) std::cout << fmt::format("--trace-failing: {} more failing seeds not traced\n", failing - traced);
  });
}

void ListMutants() {
  for (const Mutant& m : AllMutants()) {
    std::cout << m.name << "\n  " << m.description << "\n  from: " << m.origin
              << "\n  caught by: " << NameOf(m.expected_invariant) << "\n";
  }
}

// Runs the parsed subcommand.
int Dispatch(Cli& cli) {
  if (cli.run->parsed()) {
    if (!cli.run_mutant.empty()) {
      if (!KnownMutant(cli.run_mutant)) return kExitUsage;
      cli.run_options.mutant = cli.run_mutant;
    }
    if (const std::optional<int> stop = CheckBackendAtStart(InfraOptionsOf(cli.run_options))) return *stop;
    return RunCommand(cli.paths, cli.run_options, cli.run_flags);
  }
  if (cli.explore->parsed()) return ExploreCommand(cli);
  if (cli.replay->parsed()) {
    if (!KnownMutant(cli.replay_mutant)) return kExitUsage;
    if (!cli.replay_mutant.empty()) cli.replay_options.mutant = cli.replay_mutant;
    if (const std::optional<int> stop = CheckBackendAtStart(InfraOptionsOf(cli.replay_options))) return *stop;
    return ReplayCommand(cli.replay_seed, cli.replay_options, cli.replay_trace, cli.replay_write);
  }
  if (cli.shrink->parsed()) {
    if (const std::optional<int> stop = CheckBackendAtStart(InfraOptionsOf(cli.shrink_options.run))) return *stop;
    return RunShrinkCommand(cli.shrink_options);
  }
  if (cli.merge->parsed()) return MergeReports(cli.merge_out, cli.merge_in, cli.merge_coverage);
  if (cli.mutants->parsed()) {
    for (const std::string& name : cli.mutants_options.only) {
      if (!KnownMutant(name)) return kExitUsage;
    }
    if (!cli.mutants_scenarios.empty()) return ScenarioKillMatrixCommand(cli);
    return RunMutants(cli.mutants_options);
  }
  if (cli.list->parsed()) ListMutants();
  if (cli.inspect->parsed()) {
    cli.inspect_options.deadline = std::chrono::milliseconds(cli.inspect_deadline_ms);
    return RunInspect(cli.inspect_options, std::cout, std::cerr);
  }
  return kExitOk;
}

// A first argument that is no option and no subcommand: "did you mean".
bool UnknownSubcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string typed = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  if (std::find(names.begin(), names.end(), typed) != names.end()) return false;
  std::cerr << "durasim: unknown command \"" << typed << "\"" << DidYouMean(typed, names)
            << "; the commands: " << fmt::format("{}", fmt::join(names, ", ")) << " (durasim --help)\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  InstallInterruptHandlers();
  Cli cli;
  cli.app.require_subcommand(1);
  cli.app.fallthrough();  // --verbose after the subcommand too
  cli.app.set_version_flag("--version", std::string("durasim ") + DURASIM_VERSION);
  // Every option's default in --help; subcommands inherit it.
  cli.app.option_defaults()->always_capture_default();
  cli.app.add_flag("--verbose", cli.verbose, "show librdkafka's own log lines on stderr (mock and kafka backends)");
  AddRun(cli);
  AddExplore(cli);
  AddReplay(cli);
  AddShrink(cli);
  AddMergeAndMutants(cli);
  AddInspect(cli);
  if (UnknownSubcommand(cli.app, argc, argv)) return kExitUsage;
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = cli.app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }
  SetRdKafkaLogToStderr(cli.verbose);
  return Dispatch(cli);
}
