// The exploration sweep implementation: one seed's run, and what becomes of
// a failure.
#include "sim/explore/sweep.h"

#include <iostream>
#include <mutex>
#include <set>

#include "properties/mutants/mutant.h"
#include "properties/scenario_generator.h"
#include "sim/cpu_pin.h"
#include "sim/explore/failure_file.h"
#include "sim/interrupt.h"
#include "sim/explore/seed_pool.h"
#include "sim/view/report.h"
#include "sim/run/runner.h"
#include "sim/view/timeline_recorder.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// The first violation's message, or the error's.
std::string FirstMessage(const RunReport& report) {
  return !report.violations.empty() ? report.violations.front().message : report.error;
}

class Sweep {
 public:
  explicit Sweep(const SweepOptions& options)
      : options_(options),
        guard_(InfraOptions{options.backend, options.bootstrap_servers, options.broker_check_s,
                            options.infra_errors_max}) {
    if (options.mutant) run_options_.mutant = options.mutant;
    // Generated with it already; here for the reproduce lines' --store.
    run_options_.store = options.store;
    run_options_.backend = options.backend;
    run_options_.bootstrap_servers = options.bootstrap_servers;
    run_options_.compare_model = options.compare_model;
    run_options_.text_hash = options.text_hash;
  }

  SweepResult Run() {
    SeedPoolOptions pool;
    pool.jobs = options_.jobs;
    pool.time_budget_s = options_.time_budget_s;
    pool.stop_on_first_failure = options_.stop_on_first_failure;
    pool.progress = options_.progress;
    pool.progress_tty = options_.progress_tty;
    pool.stop = [this] { return guard_.stopped(); };
    pool.pin_workers = PinsThreads(options_.backend, options_.cpu_pin);
    const std::vector<uint64_t> shard =
        ShardSeeds(options_.seeds, options_.seed_start, options_.shard_index, options_.shard_count);
    SweepResult result = RunSeedPool(shard, pool, [this](uint64_t seed) { return RunSeed(seed); });
    DURASIM_CHECK_LE(result.seeds.size(), shard.size());  // a result per seed run, at most one each
    result.never_fired = NeverFired(result.seeds);
    result.pairs = PairTableOf(result.seeds);
    result.thin_pairs = ThinPairs(result.pairs, options_.require_pairs);
    result.unwritten.assign(unwritten_.begin(), unwritten_.end());
    result.infra_stop = guard_.stop_reason();
    return result;
  }

 private:
  SeedResult RunSeed(uint64_t seed) {
    if (std::optional<std::string> refused = guard_.BeforeRun()) {
      SeedResult result;
      result.seed = seed;
      result.verdict = Verdict::kInfra;
      result.trace_hash = fmt::format("{:016x}", 0);
      result.message = *refused;
      guard_.AfterRun(result.verdict, result.message);
      return result;
    }
    Generated generated = GenerateFromSeed(seed, options_.store, DrawableDesigns(options_.mutant));
    // The failure file's name and replay line quote the scenario's seed.
    DURASIM_CHECK_EQ(generated.scenario.seed, seed);
    RunOptions options = run_options_;
    options.check_determinism =
        options_.check_determinism || (options_.determinism_every > 0 && seed % options_.determinism_every == 0);
    RunReport report = RunScenario(generated.scenario, options);
    guard_.AfterRun(report.verdict, report.error);
    SeedResult result;
    result.seed = seed;
    result.store = generated.scenario.store;
    result.verdict = report.verdict;
    result.trace_hash = fmt::format("{:016x}", report.trace_hash);
    if (report.trace_text_hash) result.trace_text_hash = fmt::format("{:016x}", *report.trace_text_hash);
    result.sim_time_us = report.sim_time.count();
    result.fault_hits = report.fault_hits;
    result.invariants = InvariantsOf(report.violations);
    if (result.verdict == Verdict::kPass) return result;
    result.message = FirstMessage(report);
    // Not the store's failure: never written, never shrunk, and what it
    // covered does not count.
    if (result.verdict == Verdict::kInfra) {
      result.fault_hits.clear();
      return result;
    }
    WriteFailure(generated, FiledUnder(report), result);
    return result;
  }

  // Writes the failing scenario at once, then shrinks it and writes it again
  // (its "first violation" then comes from the shrunk run).
  void WriteFailure(const Generated& generated, ExpectedVerdict failure, SeedResult& result) {
    DURASIM_CHECK(failure.kind() != ExpectedVerdict::Kind::kPass);  // RunSeed files only a failed run
    const std::string mutant = options_.mutant.value_or("");
    const std::string path = fmt::format("{}/seed_{}{}_{}.yaml", options_.failures_dir, generated.scenario.seed,
                                         mutant.empty() ? "" : "_" + mutant, failure.name());
    const Scenario failing = FailingScenario(generated.scenario, options_.mutant, failure);
    std::vector<std::string> header = Header(generated, result.message, failure, path);
    header.push_back("not shrunk yet");
    if (Write(path, failing, header)) result.failure_file = path;
    bool shrink = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      shrink = shrunk_ < options_.shrink_max && !failure.IsViolated(Invariant::kDeterminism) && !Interrupted();
      if (shrink) ++shrunk_;
      DURASIM_CHECK(!shrink || shrunk_ <= options_.shrink_max);
    }
    if (!shrink) {
      header.back() = Interrupted() ? "not shrunk (the sweep was interrupted)"
                                    : "not shrunk (the sweep shrinks its first failures only)";
      const bool written = Write(path, failing, header);
      if (written) result.failure_file = path;
      if (written && !Interrupted()) WriteTimelineBeside(path, failing);
      NoteUnwritten(result, path);
      return;
    }
    const ShrinkResult shrunk = ShrinkFailure(failing, run_options_, failure, options_.shrink_budget_s);
    const RunReport rerun = RunScenario(shrunk.scenario, run_options_);
    // A rerun that met an infrastructure failure says nothing of the store:
    // the header keeps the message of the run that failed.
    header = Header(generated, rerun.verdict == Verdict::kInfra ? result.message : FirstMessage(rerun), failure, path);
    const std::string stopped = !shrunk.infra.empty() ? ", stopped by an infrastructure failure: " + shrunk.infra
                                : Interrupted()       ? ", interrupted"
                                                      : ", budget exhausted";
    header.push_back(fmt::format("shrunk: {} candidates tried, {} kept{}; {} attempts, {} inputs",
                                 shrunk.candidates_tried, shrunk.candidates_kept,
                                 shrunk.budget_exhausted ? stopped : "", shrunk.scenario.attempts.size(),
                                 shrunk.scenario.inputs.size()));
    const bool written = Write(path, shrunk.scenario, header);
    if (written) result.failure_file = path;
    // The picture costs one more run: not after an interrupt, and only
    // beside a file that was written.
    if (written && !Interrupted()) WriteTimelineBeside(path, shrunk.scenario);
    NoteUnwritten(result, path);
  }

  std::vector<std::string> Header(const Generated& generated, const std::string& message, ExpectedVerdict failure,
                                  const std::string& path) const {
    const std::string backend_flags = BackendFlags(run_options_);
    const std::string run_flags =
        backend_flags + (failure.IsViolated(Invariant::kDeterminism) ? " --check-determinism" : "");
    const bool on_model = run_options_.backend == BackendKind::kModel;
    std::vector<std::string> header = {
        fmt::format("Strategy: found by durasim explore: seed {}, mutant {}, invariant {}{}", generated.scenario.seed,
                    options_.mutant.value_or("none"), failure.name(),
                    on_model ? "" : fmt::format(", backend {}", NameOf(run_options_.backend))),
        fmt::format("swarm: {}", generated.swarm.Describe()),
    };
    for (std::string& line : ExpectationLines(path, options_.mutant, failure, run_flags)) {
      header.push_back(std::move(line));
    }
    header.push_back(ReplayLine(generated.scenario.seed, options_.mutant, backend_flags));
    header.push_back(FirstViolationLine(message));
    return header;
  }

  // Whether the file was written (else its YAML went to stderr).
  bool Write(const std::string& path, const Scenario& scenario, const std::vector<std::string>& header) {
    std::lock_guard<std::mutex> lock(mutex_);
    return WriteFailureFile(path, scenario, header).ok();
  }

  // The failure's timeline beside its file (same name, .svg), from one more
  // run of what the file holds; one that cannot be written is named on
  // stderr (the failure file is what counts).
  void WriteTimelineBeside(const std::string& path, const Scenario& scenario) {
    const std::string svg = TimelinePathBeside(path);
    if (const Status written = WriteTimeline(svg, scenario, run_options_); !written.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      std::cerr << "durasim: " << written.message() << "\n";
    }
  }

  // A failure no version of which reached its file is an unwritten output.
  // (When only a later, shrunk version could not be written, the file holds
  // the earlier one, which reproduces too.)
  void NoteUnwritten(const SeedResult& result, const std::string& path) {
    if (!result.failure_file.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    unwritten_.insert(path);
  }

  const SweepOptions& options_;
  InfraGuard guard_;
  RunOptions run_options_;
  std::mutex mutex_;
  int shrunk_ = 0;
  std::set<std::string> unwritten_;
};

ExploreReport ToReport(const SweepResult& result, const SweepOptions& options) {
  ExploreReport report;
  report.mutant = options.mutant;
  report.backend = options.backend;
  report.compare_model = options.compare_model;
  report.seed_start = options.seed_start;
  report.seeds_total = options.seeds;
  report.shard = fmt::format("{}/{}", options.shard_index, options.shard_count);
  report.wall_s = result.wall_s;
  report.interrupted = result.interrupted;
  report.infra_stop = result.infra_stop;
  report.never_fired = result.never_fired;
  report.pairs = result.pairs;
  report.seeds = result.seeds;
  return report;
}

}  // namespace

SweepResult SweepSeeds(const SweepOptions& options) { return Sweep(options).Run(); }

int RunSweep(const SweepOptions& options, const std::function<void(const SweepResult&)>& after) {
  std::cout << fmt::format("explore: seeds {}..{} shard {}/{} jobs {} mutant {} backend {}{}\n", options.seed_start,
                           options.seed_start + options.seeds - 1, options.shard_index, options.shard_count,
                           options.jobs, options.mutant.value_or("none"), NameOf(options.backend),
                           options.compare_model ? " compared with the model" : "");
  SweepResult result = Sweep(options).Run();
  // Reports first: whatever happens next, the run is written down. A report
  // that cannot be written is named and makes the exit code non-zero.
  // A report is rendered only when asked for (2% of a sweep's time for the JSON).
  auto write = [&result](const std::string& path, const auto& render) {
    if (path.empty()) return;
    const Status written = WriteFile(path, render());
    if (written.ok()) return;
    std::cerr << "durasim: " << written.message() << "\n";
    result.unwritten.push_back(path);
  };
  write(options.report_json_path, [&] { return ReportText(ToReport(result, options)); });
  write(options.junit_path, [&] { return ToJunit(result, options.mutant); });
  if (result.interrupted) std::cout << fmt::format("explore: interrupted by {}\n", InterruptName());
  std::cout << Summary(result) << std::flush;
  if (after) after(result);
  return ExitCodeFor(result, options.require_coverage);
}

}  // namespace durasim
