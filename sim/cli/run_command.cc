// `durasim run PATH...`: scenario files or folders of them, each run once
// (or twice with --check-determinism), or under N perturbed schedules
// (--perturb, sim/explore/perturb.h); a table of verdicts, the traces, the
// timeline and the log dump asked for, and the JSON and JUnit reports.
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "model/store_designs.h"
#include "properties/mutants/mutant.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/cpu_pin.h"
#include "sim/exit_codes.h"
#include "sim/interrupt.h"
#include "sim/explore/perturb.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/view/report.h"
#include "sim/view/timeline_recorder.h"
#include "sim/view/timeline_svg.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// How a run is reported and compared.
struct RunFlags {
  TraceFlags trace;
  std::string report_json;
  std::string junit;
  std::string filter;  // only files whose path contains it
  bool fail_fast = false;
  PerturbOptions perturb;                // --perturb N (schedules > 0): sim/explore/perturb.h
  std::optional<uint64_t> perturb_seed;  // --perturb-seed S: one perturbed schedule
  std::string timeline;                  // --timeline OUT.svg|OUT.html (sim/view/timeline_layout.h)
  bool dump_log = false;                 // --dump-log: every partition's records after each attempt
};

struct RunState {
  std::vector<std::string> paths;
  std::string mutant;
  RunOptions options;
  RunFlags flags;
  bool cpu_pin = true;  // --no-cpu-pin clears it
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

// The scenarios of the files `paths` name, filtered; an error on stderr and
// nothing when a path or a file is wrong.
std::optional<std::vector<Scenario>> LoadScenarios(const std::vector<std::string>& paths, const std::string& filter) {
  Result<std::vector<std::string>> collected = CollectScenarioFiles(paths);
  if (!collected.ok()) {
    std::cerr << "durasim: " << collected.status().message() << "\n";
    return std::nullopt;
  }
  const std::vector<std::string> files = Filtered(*collected, filter);
  if (files.empty()) {
    std::cerr << "durasim: no scenario file's path contains \"" << filter << "\" (--filter)\n";
    return std::nullopt;
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
  if (input_error) return std::nullopt;
  DURASIM_CHECK_EQ(scenarios.size(), files.size());
  return scenarios;
}

// The flags that cannot go together with what was given: an error on stderr
// and false.
bool KeepTopicAllowed(const RunOptions& options, const RunFlags& flags, size_t scenarios) {
  if (options.keep_topic.empty() || (options.backend == BackendKind::kKafka && scenarios == 1 &&
                                     flags.perturb.schedules == 0 && !options.check_determinism)) {
    return true;
  }
  std::cerr << "durasim: --keep-topic names the topic of one run on a real broker: one scenario file with "
               "--backend kafka, without --perturb or --check-determinism\n";
  return false;
}

bool TimelineAllowed(const RunFlags& flags, size_t scenarios) {
  if (flags.timeline.empty()) return true;
  if (!flags.timeline.ends_with(".svg") && !flags.timeline.ends_with(".html") && !flags.timeline.ends_with(".htm")) {
    std::cerr << "durasim: --timeline writes SVG (.svg) or a self-contained HTML page (.html, .htm), not '"
              << flags.timeline << "'\n";
    return false;
  }
  if (scenarios != 1) {
    std::cerr << "durasim: --timeline draws one run: give one scenario file, not " << scenarios << "\n";
    return false;
  }
  return true;
}

// `run --perturb N`: every file under N perturbed schedules.
int RunPerturbed(const std::vector<Scenario>& scenarios, const RunOptions& options, const RunFlags& flags) {
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

// Runs one scenario and shows what the flags ask of it (trace, kept topic,
// log dump, timeline).
RunReport RunAndShow(const Scenario& scenario, const RunOptions& options, const RunFlags& flags, InfraGuard& guard,
                     std::vector<std::string>& unwritten) {
  const std::optional<std::string> refused = guard.BeforeRun();
  const bool recorded = !refused && (!flags.timeline.empty() || flags.dump_log);
  RecordedRun run = recorded ? RunRecorded(scenario, options, flags.dump_log)
                             : RecordedRun{refused ? NotRunReport(scenario, options, *refused)
                                                   : RunScenario(scenario, options)};
  RunReport& report = run.report;
  DURASIM_CHECK(!refused || report.verdict == Verdict::kInfra);  // a run the guard refused is reported, not judged
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
  return std::move(run.report);
}

// The reports, the table and the exit code after the runs.
int Summarize(const std::vector<RunReport>& reports, size_t skipped, size_t scenarios,
              const std::vector<LeftOutFile>& left_out, const RunOptions& options, const RunFlags& flags,
              const InfraGuard& guard, std::vector<std::string>& unwritten, double wall_s) {
  DURASIM_CHECK_EQ(reports.size() + skipped, scenarios);
  // Written before anything else can go wrong: a failing run is never lost.
  WriteReport(flags.report_json, RenderJson(reports, Interrupted(), guard.stop_reason(), left_out), unwritten);
  const std::string reproduce_flags = (options.mutant ? " --mutant " + *options.mutant : "") + BackendFlags(options);
  WriteReport(flags.junit, RenderJunit(reports, reproduce_flags, wall_s, left_out), unwritten);
  std::cout << RenderTable(reports);
  if (skipped > 0 || Interrupted()) {
    std::cout << fmt::format("{}: {} of {} scenario files not run\n",
                             Interrupted()     ? std::string("interrupted by ") + InterruptName()
                             : guard.stopped() ? "stopped: " + guard.stop_reason()
                                               : std::string("--fail-fast"),
                             skipped, scenarios);
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

int Run(const std::vector<std::string>& paths, const RunOptions& run_options, const RunFlags& flags) {
  const auto start = std::chrono::steady_clock::now();
  RunOptions options = run_options;
  options.record_lines = flags.trace.wanted();  // the readable trace shows what each record holds
  std::optional<std::vector<Scenario>> scenarios = LoadScenarios(paths, flags.filter);
  if (!scenarios || !KeepTopicAllowed(options, flags, scenarios->size())) return kExitUsage;
  const std::vector<LeftOutFile> left_out = LeaveOutNotRunnable(*scenarios, options.store, options.mutant, options.backend);
  for (const LeftOutFile& file : left_out) std::cout << LeftOutLine(file) << "\n";
  if (scenarios->empty()) {
    std::cerr << "durasim: no scenario file left to run on this store design (every one is listed above)\n";
    return kExitUsage;
  }
  if (flags.perturb.schedules > 0) return RunPerturbed(*scenarios, options, flags);
  if (flags.perturb_seed) {
    for (Scenario& scenario : *scenarios) scenario.perturb_seed = flags.perturb_seed;
  }
  if (!TimelineAllowed(flags, scenarios->size())) return kExitUsage;
  std::vector<RunReport> reports;
  std::vector<std::string> unwritten;
  size_t skipped = 0;
  InfraGuard guard(InfraOptionsOf(options));
  for (const Scenario& scenario : *scenarios) {
    // No new run starts after an interrupt, infrastructure failures in a row
    // (sim/run/infra_guard.h) or (--fail-fast) a failed one; an infra run is no
    // failure of the store.
    if (Interrupted() || guard.stopped() ||
        (flags.fail_fast && !reports.empty() && !reports.back().ok && reports.back().verdict != Verdict::kInfra)) {
      ++skipped;
      continue;
    }
    reports.push_back(RunAndShow(scenario, options, flags, guard, unwritten));
  }
  const double wall_s = WallSecondsSince(start);
  return Summarize(reports, skipped, scenarios->size(), left_out, options, flags, guard, unwritten, wall_s);
}

void AddRunFlags(CLI::App& run, RunState& state) {
  run.add_option("paths", state.paths, "scenario files or folders (*.yaml, *.yml)")->required();
  run.add_option("--mutant", state.mutant, "run with this known-buggy variant (see `durasim mutants-list`)");
  AddStoreOption(run, state.options.store, "run every file that names no `store:` with this store design");
  AddBackendOptions(run, state.options.backend, state.options.bootstrap_servers, state.options.compare_model,
                    state.options.broker_check_s, state.options.infra_errors_max, state.cpu_pin);
  AddTraceOptions(run, state.flags.trace);
  run.add_option("--report-json", state.flags.report_json, "write a JSON report to this file");
  run.add_option("--junit", state.flags.junit, "write a JUnit XML report: one test case per scenario file");
  run.add_option("--filter", state.flags.filter, "only the scenario files whose path contains this text");
  run.add_flag("--fail-fast", state.flags.fail_fast, "start no further file after one is not as expected");
  run.add_option("--keep-topic", state.options.keep_topic,
                 "--backend kafka: give the run's topic this name (one the broker does not hold) and print each "
                 "completed checkpoint's marker, for `durasim inspect`");
  run.add_flag("--check-determinism", state.options.check_determinism,
               "run every scenario twice and compare traces");
  run.add_flag("--text-hash", state.options.text_hash, kTextHashHelp);
  run.add_option("--timeline", state.flags.timeline,
                 "draw the run's timeline to this file: SVG, or a self-contained HTML page for .html (one scenario file)");
  run.add_flag("--dump-log", state.flags.dump_log, "print every partition's records, decoded, after each attempt");
}

void AddPerturbFlags(CLI::App& run, RunFlags& flags) {
  PerturbOptions& perturb = flags.perturb;
  CLI::Option* schedules =
      run.add_option("--perturb", perturb.schedules,
                     "run every file under N perturbed schedules derived from its seed: (latency ranges, same-time "
                     "timer order); each must keep the file's expectation")
          ->check(CLI::Range(int64_t{1}, int64_t{1'000'000}));
  run.add_option("--perturb-seed", flags.perturb_seed, "run the one perturbed schedule with this perturb seed")
      ->excludes(schedules);
  run.add_option("--jobs", perturb.jobs, "worker threads for --perturb")->check(CLI::Range(1, 256))->needs(schedules);
  run.add_option("--failures-dir", perturb.failures_dir, "where --perturb writes the schedules that failed")
      ->needs(schedules)
      ->capture_default_str();
  run.add_option("--shrink-budget-s", perturb.shrink_budget_s, "wall time to shrink one --perturb failure")
      ->needs(schedules)
      ->capture_default_str();
}

}  // namespace

Command AddRunCommand(CLI::App& app) {
  auto state = std::make_shared<RunState>();
  CLI::App* run = app.add_subcommand("run", "run scenario files or folders of them");
  AddRunFlags(*run, *state);
  AddPerturbFlags(*run, state->flags);
  return {run, [state] {
            if (!state->mutant.empty()) {
              if (!KnownMutant(state->mutant) || !MutantAppliesToStore(state->mutant, state->options.store)) {
                return kExitUsage;
              }
              state->options.mutant = state->mutant;
            }
            // --perturb pins each of its workers instead (they would all
            // inherit this thread's one CPU).
            PinCommandThread(state->options.backend, state->cpu_pin && state->flags.perturb.schedules == 0);
            state->flags.perturb.pin_workers = PinsThreads(state->options.backend, state->cpu_pin);
            if (const std::optional<int> stop = CheckBackendAtStart(InfraOptionsOf(state->options))) return *stop;
            return Run(state->paths, state->options, state->flags);
          }};
}

}  // namespace durasim
