// Perturbed schedules implementation: the schedules run on worker threads,
// then the failures are written (and shrunk) one by one.
#include "sim/explore/perturb.h"

#include "sim/interrupt.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "model/perturbation.h"
#include "sim/cpu_pin.h"
#include "sim/exit_codes.h"
#include "sim/explore/failure_file.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// `scenario` on schedule `perturb_seed`.
Scenario OnSchedule(const Scenario& scenario, uint64_t perturb_seed) {
  Scenario perturbed = scenario;
  perturbed.perturb_seed = perturb_seed;
  return perturbed;
}

std::string FirstProblem(const RunReport& report) {
  if (!report.mismatches.empty()) return report.mismatches.front();
  return report.error;
}

std::string FirstMessage(const RunReport& report) {
  if (!report.violations.empty()) return report.violations.front().message;
  return report.error;
}

// The file a failing schedule is written to, and what it expects: a kill
// file of a mutant the command ran keeps expecting the violation it showed; a
// violation on production code is written expecting what the file expected
// (pass), so the file fails until the bug is fixed (issue 13 part 3), and
// both are shrunk; anything else (a negative file whose bug went unseen, an
// output or call count that moved) is written as it is, expecting what the
// file expected.
void WriteFailure(const Scenario& scenario, const std::string& file_name, const RunOptions& options,
                  const PerturbOptions& perturb, int64_t schedules, PerturbedFailure& failure) {
  const std::string path = fmt::format("{}/perturb_{}_{}.yaml", perturb.failures_dir, file_name, failure.perturb_seed);
  const Scenario on_schedule = OnSchedule(scenario, failure.perturb_seed);
  const std::optional<std::string> mutant = options.mutant ? options.mutant : scenario.mutant;
  const ExpectedVerdict filed = FiledUnder(failure.report);
  const bool violated = failure.report.verdict == Verdict::kViolation || failure.report.verdict == Verdict::kStuck;
  const bool kill_file = options.mutant.has_value() && violated;
  const bool production_bug = !mutant.has_value() && violated && scenario.expect.verdict.kind() == ExpectedVerdict::Kind::kPass;

  std::vector<std::string> header = {
      fmt::format("Strategy: found by durasim run --perturb {}: schedule {} of {} (seed: {}), perturb seed {}{}",
                  schedules, failure.index, scenario.path, scenario.seed, failure.perturb_seed,
                  mutant ? ", mutant " + *mutant : ""),
      fmt::format("mismatch: {}", FirstProblem(failure.report)),
      fmt::format("reproduce: build/durasim run{}{} {}", options.mutant ? " --mutant " + *options.mutant : "",
                  BackendFlags(options), path),
      fmt::format("the schedule in the original file: build/durasim run {} --perturb-seed {}{}{}", scenario.path,
                  failure.perturb_seed, options.mutant ? " --mutant " + *options.mutant : "", BackendFlags(options)),
  };
  if (const std::string message = FirstMessage(failure.report); !message.empty()) {
    header.push_back(FirstViolationLine(message));
  }
  Scenario written = on_schedule;
  if (kill_file || production_bug) {
    // A violation or a stuck run is filed under an invariant: a failure to shrink toward.
    DURASIM_CHECK(filed.kind() == ExpectedVerdict::Kind::kViolated);
    const Scenario failing = FailingScenario(on_schedule, mutant, filed);
    const ShrinkResult shrunk = ShrinkFailure(failing, options, filed, perturb.shrink_budget_s);
    written = shrunk.scenario;
    if (production_bug) {
      written.expect = Expectation{};
      written.expect.allow_unfired = scenario.expect.allow_unfired;
    }
    header.push_back(fmt::format("shrunk: {} candidates tried, {} kept{}; {} attempts, {} inputs",
                                 shrunk.candidates_tried, shrunk.candidates_kept,
                                 shrunk.budget_exhausted ? ", budget exhausted" : "", written.attempts.size(),
                                 written.inputs.size()));
  } else {
    header.push_back("not shrunk: the schedule kept no violation to shrink toward");
  }
  // A file that could not be written is not listed (its YAML went to stderr).
  if (WriteFailureFile(path, written, header).ok()) failure.written = path;
}

// One schedule's run.
struct Outcome {
  bool ran = false;  // an interrupt stops schedules from starting
  uint64_t trace_hash = 0;
  std::optional<RunReport> failed;
  std::optional<std::string> infra;  // the run ended infra: its cause
};

// What the schedules of `scenario` came to (their failures moved out of
// `outcomes`), before any is written.
PerturbedFile FileOf(const Scenario& scenario, const PerturbOptions& perturb, std::vector<Outcome>& outcomes) {
  PerturbedFile file;
  file.path = scenario.path;
  file.name = scenario.name;
  file.seed = scenario.seed;
  file.schedules = perturb.schedules;
  std::set<uint64_t> distinct;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    Outcome& outcome = outcomes[i];
    if (!outcome.ran) continue;
    if (outcome.infra) {
      if (file.infra_runs++ == 0) file.infra_cause = *outcome.infra;
      continue;
    }
    ++file.schedules_ran;
    file.trace_hashes.push_back(outcome.trace_hash);
    distinct.insert(outcome.trace_hash);
    if (!outcome.failed) continue;
    PerturbedFailure failure;
    failure.index = static_cast<int64_t>(i);
    failure.perturb_seed = PerturbedSeed(scenario.seed, i);
    failure.report = std::move(*outcome.failed);
    file.failures.push_back(std::move(failure));
  }
  file.distinct_traces = static_cast<int64_t>(distinct.size());
  // Failures and traces are of the schedules judged.
  DURASIM_CHECK_LE(file.distinct_traces, file.schedules_ran);
  DURASIM_CHECK_LE(static_cast<int64_t>(file.failures.size()), file.schedules_ran);
  return file;
}

}  // namespace

std::vector<std::string> FailureFileNames(const std::vector<Scenario>& scenarios) {
  std::vector<std::string> names;
  std::map<std::string, int> uses;
  for (const Scenario& scenario : scenarios) {
    const std::string stem = std::filesystem::path(scenario.path).stem().string();
    names.push_back(stem.empty() ? scenario.name : stem);
    ++uses[names.back()];
  }
  for (size_t f = 0; f < scenarios.size(); ++f) {
    if (uses[names[f]] < 2) continue;
    std::string unique = std::filesystem::path(scenarios[f].path).replace_extension().string();
    for (char& c : unique) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    }
    names[f] = unique;
  }
  DURASIM_CHECK_EQ(names.size(), scenarios.size());
  return names;
}

std::vector<PerturbedFile> RunPerturbed(const std::vector<Scenario>& scenarios, const RunOptions& options,
                                        const PerturbOptions& perturb, InfraGuard* guard) {
  std::vector<PerturbedFile> files(scenarios.size());
  std::vector<std::vector<Outcome>> outcomes(scenarios.size());
  for (size_t f = 0; f < scenarios.size(); ++f) {
    outcomes[f].resize(static_cast<size_t>(std::max<int64_t>(perturb.schedules, 0)));
  }
  const uint64_t per_file = static_cast<uint64_t>(std::max<int64_t>(perturb.schedules, 0));
  const uint64_t total = per_file * scenarios.size();
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    for (uint64_t item = next++; item < total && !Interrupted() && !(guard && guard->stopped()); item = next++) {
      const size_t f = static_cast<size_t>(item / per_file);
      const uint64_t index = item % per_file;
      DURASIM_CHECK_LT(f, scenarios.size());  // item < total = per_file * files
      const Scenario perturbed = OnSchedule(scenarios[f], PerturbedSeed(scenarios[f].seed, index));
      const std::optional<std::string> refused = guard ? guard->BeforeRun() : std::nullopt;
      RunReport report = refused ? NotRunReport(perturbed, options, *refused) : RunScenario(perturbed, options);
      if (guard) guard->AfterRun(report.verdict, report.error);
      Outcome& outcome = outcomes[f][static_cast<size_t>(index)];
      DURASIM_CHECK(!outcome.ran);  // `next` hands each schedule to one worker
      outcome.ran = true;
      outcome.trace_hash = report.trace_hash;
      if (report.verdict == Verdict::kInfra) {
        outcome.infra = report.error;  // not judged: never written
      } else if (!report.ok) {
        outcome.failed = std::move(report);
      }
    }
  };
  std::optional<CpuPins> pins;
  if (perturb.pin_workers) pins = CpuPins::FromCallingThread();
  std::once_flag refusal_said;
  const auto pinned_work = [&](int worker) {
    if (pins.has_value()) PinWorker(*pins, worker, "run --perturb", refusal_said);
    work();
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < std::max(perturb.jobs, 1); ++j) workers.emplace_back(pinned_work, j);
  pinned_work(0);
  for (std::thread& worker : workers) worker.join();

  const std::vector<std::string> file_names = FailureFileNames(scenarios);
  for (size_t f = 0; f < scenarios.size(); ++f) {
    PerturbedFile& file = files[f];
    file = FileOf(scenarios[f], perturb, outcomes[f]);
    for (size_t k = 0; k < file.failures.size() && k < static_cast<size_t>(std::max(perturb.written_max, 0)); ++k) {
      WriteFailure(scenarios[f], file_names[f], options, perturb, perturb.schedules, file.failures[k]);
    }
  }
  return files;
}

int PerturbCommand(const std::vector<Scenario>& scenarios, const RunOptions& options, const PerturbOptions& perturb) {
  const auto started = std::chrono::steady_clock::now();
  InfraGuard guard(InfraOptionsOf(options));
  const std::vector<PerturbedFile> files = RunPerturbed(scenarios, options, perturb, &guard);
  const double wall_s = WallSecondsSince(started);
  int64_t failed = 0;
  for (size_t f = 0; f < files.size(); ++f) {
    const PerturbedFile& file = files[f];
    const std::string expect = scenarios[f].expect.verdict.name();
    failed += static_cast<int64_t>(file.failures.size());
    if (file.infra_runs > 0) {
      std::cout << fmt::format("INFRA   {}: {} schedules not judged (the broker failed), the first: {}\n", file.path,
                               file.infra_runs, file.infra_cause.substr(0, file.infra_cause.find('\n')));
    }
    if (file.failures.empty() && file.schedules_ran == 0) continue;
    if (file.failures.empty()) {
      std::cout << fmt::format("ok      {}: {} schedules from seed {} ({} distinct traces) kept expect {}\n", file.path,
                               file.schedules, file.seed, file.distinct_traces, expect);
      continue;
    }
    std::cout << fmt::format("FAILED  {}: {} of {} schedules from seed {} broke expect {}\n", file.path,
                             file.failures.size(), file.schedules, file.seed, expect);
    constexpr size_t kPrintedMax = 5;
    for (size_t k = 0; k < file.failures.size() && k < kPrintedMax; ++k) {
      const PerturbedFailure& failure = file.failures[k];
      std::cout << fmt::format("  schedule {} (--perturb-seed {}): {}{}\n", failure.index, failure.perturb_seed,
                               FirstProblem(failure.report),
                               failure.written.empty() ? "" : " -> " + failure.written);
      if (const std::string message = FirstMessage(failure.report); !message.empty()) {
        std::cout << "    " << message.substr(0, message.find('\n')) << "\n";
      }
      if (perturb.on_failure) perturb.on_failure(scenarios[f], failure.report);
    }
    if (file.failures.size() > kPrintedMax) {
      std::cout << fmt::format("  ... and {} more\n", file.failures.size() - kPrintedMax);
    }
  }
  std::cout << fmt::format("perturb: {} files x {} schedules = {} runs, {} broke their expectation, {:.1f} s on {} "
                           "job{}\n",
                           files.size(), perturb.schedules, static_cast<int64_t>(files.size()) * perturb.schedules,
                           failed, wall_s, perturb.jobs, perturb.jobs == 1 ? "" : "s");
  if (guard.stopped()) std::cout << fmt::format("perturb: stopped: {}: not every schedule ran\n", guard.stop_reason());
  if (Interrupted()) {
    int64_t ran = 0;
    for (const PerturbedFile& file : files) ran += file.schedules_ran;
    std::cout << fmt::format("perturb: interrupted by {}: {} of those runs ran (a file's 'ok' counts only its runs "
                             "that ran)\n",
                             InterruptName(), ran);
    std::cout.flush();
    return InterruptExitCode();
  }
  if (failed > 0) return kExitNotAsExpected;
  return guard.infra_runs() > 0 ? kExitInfra : kExitOk;
}

}  // namespace durasim
