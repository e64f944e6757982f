// The exploration sweep implementation: one seed's run, and what becomes of
// a failure.
#include "sim/explore/sweep.h"

#include <fmt/format.h>

#include <iostream>
#include <mutex>

#include "properties/scenario_generator.h"
#include "sim/explore/failure_file.h"
#include "sim/explore/seed_pool.h"
#include "sim/report.h"
#include "sim/runner.h"

namespace durasim {
namespace {

class Sweep {
 public:
  explicit Sweep(const SweepOptions& options) : options_(options) {
    if (options.mutant) run_options_.mutant = options.mutant;
    run_options_.backend = options.backend;
    run_options_.bootstrap_servers = options.bootstrap_servers;
    run_options_.compare_model = options.compare_model;
  }

  SweepResult Run() {
    SeedPoolOptions pool;
    pool.jobs = options_.jobs;
    pool.time_budget_s = options_.time_budget_s;
    pool.stop_on_first_failure = options_.stop_on_first_failure;
    pool.progress = options_.progress;
    pool.progress_tty = options_.progress_tty;
    SweepResult result =
        RunSeedPool(ShardSeeds(options_.seeds, options_.seed_start, options_.shard_index, options_.shard_count), pool,
                    [this](uint64_t seed) { return RunSeed(seed); });
    result.never_fired = NeverFired(result.seeds);
    return result;
  }

 private:
  SeedResult RunSeed(uint64_t seed) {
    Generated generated = GenerateFromSeed(seed);
    RunOptions options = run_options_;
    options.check_determinism =
        options_.check_determinism || (options_.determinism_every > 0 && seed % options_.determinism_every == 0);
    RunReport report = RunScenario(generated.scenario, options);
    SeedResult result;
    result.seed = seed;
    result.verdict = report.verdict;
    result.trace_hash = fmt::format("{:016x}", report.trace_hash);
    result.sim_time_us = report.sim_time.count();
    result.fault_hits = report.fault_hits;
    result.invariants = InvariantsOf(report.violations);
    if (result.verdict == Verdict::kPass) return result;
    result.message = !report.violations.empty() ? report.violations.front().message : report.error;
    WriteFailure(generated, FiledUnder(report), result);
    return result;
  }

  // Writes the failing scenario at once, then shrinks it and writes it again.
  void WriteFailure(const Generated& generated, ExpectedVerdict filed, SeedResult& result) {
    const std::string mutant = options_.mutant.value_or("");
    const std::string path = fmt::format("{}/seed_{}{}_{}.yaml", options_.failures_dir, generated.scenario.seed,
                                         mutant.empty() ? "" : "_" + mutant, filed.name());
    result.failure_file = path;
    const Scenario failing = FailingScenario(generated.scenario, options_.mutant, filed);
    std::vector<std::string> header = Header(generated, result.message, filed, path);
    header.push_back("not shrunk yet");
    Write(path, failing, header);
    bool shrink = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      shrink = shrunk_ < options_.shrink_max && !filed.IsViolated(Invariant::kDeterminism);
      if (shrink) ++shrunk_;
    }
    if (!shrink) {
      header.back() = "not shrunk (the sweep shrinks its first failures only)";
      Write(path, failing, header);
      return;
    }
    const ShrinkResult shrunk = ShrinkFailure(failing, run_options_, options_.shrink_budget_s);
    header.back() = fmt::format("shrunk: {} candidates tried, {} kept{}; {} attempts, {} inputs",
                                shrunk.candidates_tried, shrunk.candidates_kept,
                                shrunk.budget_exhausted ? ", budget exhausted" : "", shrunk.scenario.attempts.size(),
                                shrunk.scenario.inputs.size());
    Write(path, shrunk.scenario, header);
  }

  std::vector<std::string> Header(const Generated& generated, const std::string& message, ExpectedVerdict filed,
                                  const std::string& path) const {
    const std::string backend_flags = BackendFlags(run_options_);
    const bool on_model = run_options_.backend == BackendKind::kModel;
    return {
        fmt::format("Strategy: found by durasim explore: seed {}, mutant {}, invariant {}{}", generated.scenario.seed,
                    options_.mutant.value_or("none"), filed.name(),
                    on_model ? "" : fmt::format(", backend {}", NameOf(run_options_.backend))),
        fmt::format("swarm: {}", generated.swarm.Describe()),
        fmt::format("reproduce: build/durasim run{} {}", backend_flags, path),
        ReplayLine(generated.scenario.seed, options_.mutant, backend_flags),
        FirstViolationLine(message),
    };
  }

  void Write(const std::string& path, const Scenario& scenario, const std::vector<std::string>& header) {
    std::lock_guard<std::mutex> lock(mutex_);
    WriteFailureFile(path, scenario, header);
  }

  const SweepOptions& options_;
  RunOptions run_options_;
  std::mutex mutex_;
  int shrunk_ = 0;
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
  report.never_fired = result.never_fired;
  report.seeds = result.seeds;
  return report;
}

}  // namespace

SweepResult SweepSeeds(const SweepOptions& options) { return Sweep(options).Run(); }

int RunSweep(const SweepOptions& options) {
  std::cout << fmt::format("explore: seeds {}..{} shard {}/{} jobs {} mutant {} backend {}{}\n", options.seed_start,
                           options.seed_start + options.seeds - 1, options.shard_index, options.shard_count,
                           options.jobs, options.mutant.value_or("none"), NameOf(options.backend),
                           options.compare_model ? " compared with the model" : "");
  const SweepResult result = Sweep(options).Run();
  // Reports first: whatever happens next, the run is written down.
  if (!options.report_json_path.empty()) {
    const Status written = WriteFile(options.report_json_path, ReportText(ToReport(result, options)));
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }
  if (!options.junit_path.empty()) {
    const Status written = WriteFile(options.junit_path, ToJunit(result, options.mutant));
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }
  std::cout << Summary(result);
  return ExitCodeFor(result, options.require_coverage);
}

}  // namespace durasim
