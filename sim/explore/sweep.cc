// The exploration sweep implementation.
#include "sim/explore/sweep.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "sim/explore/shrink.h"
#include "properties/scenario_generator.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/scenario_writer.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

class Sweep {
 public:
  explicit Sweep(const SweepOptions& options) : options_(options) {
    for (uint64_t i = 0; i < options.seeds; ++i) {
      if (static_cast<int>(i % static_cast<uint64_t>(options.shard_count)) == options.shard_index) {
        seeds_.push_back(options.seed_start + i);
      }
    }
    results_.resize(seeds_.size());
    finished_.assign(seeds_.size(), 0);
    if (options.mutant) run_options_.mutant = options.mutant;
    run_options_.backend = options.backend;
    run_options_.bootstrap_servers = options.bootstrap_servers;
    run_options_.compare_model = options.compare_model;
  }

  SweepResult Run() {
    const Clock::time_point start = start_ = Clock::now();
    std::vector<std::thread> workers;
    workers_left_ = std::max(1, options_.jobs);
    for (int j = 0; j < std::max(1, options_.jobs); ++j) workers.emplace_back([this] {
      Work();
      --workers_left_;
    });
    if (options_.progress) ReportProgress(start);
    for (std::thread& worker : workers) worker.join();
    SweepResult result;
    result.wall_s = Seconds(Clock::now() - start);
    result.budget_exhausted = budget_exhausted_;
    for (size_t i = 0; i < seeds_.size(); ++i) {
      if (finished_[i]) result.seeds.push_back(std::move(results_[i]));
    }
    std::map<std::string, int64_t> hits;
    for (const SeedResult& seed : result.seeds) {
      for (const auto& [name, count] : seed.fault_hits) hits[name] += count;
    }
    for (const std::string& name : FaultHitNames()) {
      if (hits.count(name) == 0) result.never_fired.push_back(name);
    }
    return result;
  }

 private:
  void Work() {
    while (true) {
      const size_t index = next_.fetch_add(1);
      if (index >= seeds_.size() || index > first_failure_) return;
      if (options_.time_budget_s > 0 && Seconds(Clock::now() - start_) > options_.time_budget_s) {
        budget_exhausted_ = true;
        return;
      }
      results_[index] = RunSeed(seeds_[index]);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_[index] = true;
        if (options_.stop_on_first_failure && results_[index].verdict != "pass") {
          first_failure_ = std::min<size_t>(first_failure_, index);
        }
      }
      ++done_;
    }
  }

  SeedResult RunSeed(uint64_t seed) {
    Generated generated = GenerateFromSeed(seed);
    RunOptions options = run_options_;
    options.check_determinism =
        options_.check_determinism || (options_.determinism_every > 0 && seed % options_.determinism_every == 0);
    RunReport report = RunScenario(generated.scenario, options);
    SeedResult result;
    result.seed = seed;
    result.verdict = report.verdict;
    result.trace_hash = report.trace_hash;
    result.sim_us = report.sim_time.count();
    result.fault_hits = report.fault_hits;
    for (const Violation& v : report.violations) {
      if (std::find(result.invariants.begin(), result.invariants.end(), v.invariant) == result.invariants.end()) {
        result.invariants.push_back(v.invariant);
      }
    }
    if (result.verdict == "pass") return result;
    result.message = !report.violations.empty() ? report.violations.front().message : report.error;
    WriteFailure(generated, report, result);
    return result;
  }

  // Writes the failing scenario at once, then shrinks it and writes it again.
  void WriteFailure(const Generated& generated, const RunReport& report, SeedResult& result) {
    const std::string invariant = result.verdict == "stuck"   ? "liveness"
                                  : result.verdict == "error" ? "error"
                                                              : result.invariants.front();
    std::error_code error;
    std::filesystem::create_directories(options_.failures_dir, error);
    const std::string mutant = options_.mutant.value_or("");
    const std::string path = fmt::format("{}/seed_{}{}_{}.yaml", options_.failures_dir, generated.scenario.seed,
                                         mutant.empty() ? "" : "_" + mutant, invariant);
    result.failure_file = path;
    Scenario failing = generated.scenario;
    failing.mutant = options_.mutant;
    failing.expect = Expectation{};
    failing.expect.verdict = invariant;
    std::vector<std::string> header = Header(generated, report, invariant, path);
    header.push_back("not shrunk yet");
    Write(path, WriteScenarioYaml(failing, header));
    bool shrink = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      shrink = shrunk_ < options_.shrink_max && invariant != "determinism";
      if (shrink) ++shrunk_;
    }
    if (!shrink) {
      header.back() = "not shrunk (the sweep shrinks its first failures only)";
      Write(path, WriteScenarioYaml(failing, header));
      return;
    }
    const auto budget = std::chrono::milliseconds(static_cast<int64_t>(options_.shrink_budget_s * 1000));
    ShrinkResult shrunk = Shrink(failing, run_options_, invariant, budget);
    header.back() = fmt::format("shrunk: {} candidates tried, {} kept{}; {} attempts, {} inputs",
                                shrunk.candidates_tried, shrunk.candidates_kept,
                                shrunk.budget_exhausted ? ", budget exhausted" : "", shrunk.scenario.attempts.size(),
                                shrunk.scenario.inputs.size());
    shrunk.scenario.name = failing.name;
    shrunk.scenario.mutant = options_.mutant;
    shrunk.scenario.expect = failing.expect;
    Write(path, WriteScenarioYaml(shrunk.scenario, header));
  }

  std::vector<std::string> Header(const Generated& generated, const RunReport& report, const std::string& invariant,
                                  const std::string& path) const {
    const std::string mutant_flag = options_.mutant ? " --mutant " + *options_.mutant : "";
    const std::string backend_flags = BackendFlags(run_options_);
    std::vector<std::string> header = {
        fmt::format("Strategy: found by durasim explore: seed {}, mutant {}, invariant {}{}", generated.scenario.seed,
                    options_.mutant.value_or("none"), invariant,
                    run_options_.backend == "model" ? "" : ", backend " + run_options_.backend),
        fmt::format("swarm: {}", generated.swarm.Describe()),
        fmt::format("reproduce: build/durasim run{} {}", backend_flags, path),
        fmt::format("replay the generated run: build/durasim replay --seed {}{}{}", generated.scenario.seed, mutant_flag,
                    backend_flags),
    };
    const std::string message = !report.violations.empty() ? report.violations.front().message : report.error;
    const std::string first_line = message.substr(0, message.find('\n'));
    header.push_back(fmt::format("first violation: {}", first_line));
    return header;
  }

  void Write(const std::string& path, const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Status written = WriteFile(path, text);
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }

  void ReportProgress(Clock::time_point start) {
    const size_t total = seeds_.size();
    size_t last_printed = 0;
    Clock::time_point last_line = start;
    while (done_ < total && !budget_exhausted_ && workers_left_ > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const size_t done = done_;
      const double elapsed = Seconds(Clock::now() - start);
      const double rate = elapsed > 0 ? done / elapsed : 0;
      if (options_.progress_tty) {
        constexpr size_t kWidth = 30;
        const size_t filled = total == 0 ? kWidth : done * kWidth / total;
        std::cout << fmt::format("\r[{}{}] {}/{} seeds {:.0f} runs/s", std::string(filled, '#'),
                                 std::string(kWidth - filled, '.'), done, total, rate)
                  << std::flush;
      } else if (Seconds(Clock::now() - last_line) >= 5 || done - last_printed >= std::max<size_t>(total / 10, 1)) {
        std::cout << fmt::format("explore: {}/{} seeds, {:.0f} runs/s\n", done, total, rate) << std::flush;
        last_printed = done;
        last_line = Clock::now();
      }
    }
    if (options_.progress_tty) std::cout << "\n";
  }

  const SweepOptions& options_;
  RunOptions run_options_;
  std::vector<uint64_t> seeds_;
  std::vector<SeedResult> results_;
  std::vector<char> finished_;
  Clock::time_point start_ = Clock::now();
  std::atomic<size_t> next_{0};
  std::atomic<size_t> done_{0};
  std::atomic<bool> budget_exhausted_{false};
  std::atomic<int> workers_left_{0};
  std::atomic<size_t> first_failure_{std::numeric_limits<size_t>::max()};  // with stop_on_first_failure
  std::mutex mutex_;
  int shrunk_ = 0;
};

std::string Summary(const SweepResult& result) {
  std::map<std::string, int64_t> verdicts;
  std::map<std::string, int64_t> by_invariant;
  std::map<std::string, int64_t> hits;
  int64_t sim_us = 0;
  for (const SeedResult& seed : result.seeds) {
    ++verdicts[seed.verdict];
    for (const std::string& invariant : seed.invariants) ++by_invariant[invariant];
    for (const auto& [name, count] : seed.fault_hits) hits[name] += count;
    sim_us += seed.sim_us;
  }
  const double runs = static_cast<double>(result.seeds.size());
  std::string out = fmt::format("explore: {} runs in {:.2f} s: {:.0f} runs/s, simulated {:.1f} s = {:.1f}x wall time\n",
                                result.seeds.size(), result.wall_s, result.wall_s > 0 ? runs / result.wall_s : 0,
                                sim_us / 1e6, result.wall_s > 0 ? sim_us / 1e6 / result.wall_s : 0);
  out += fmt::format("verdicts: {}\n", verdicts);
  out += fmt::format("violations by invariant: {}\n", by_invariant.empty() ? "none" : fmt::format("{}", by_invariant));
  out += "fault kinds and points hit:\n";
  for (const auto& [name, count] : hits) out += fmt::format("  {:<40} {}\n", name, count);
  if (!result.never_fired.empty()) out += fmt::format("never fired: {}\n", fmt::join(result.never_fired, ", "));
  if (result.budget_exhausted) out += "time budget exhausted: not every seed ran\n";
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == "pass") continue;
    out += fmt::format("FAILED seed {}: {} [{}] -> {}\n", seed.seed, seed.verdict, fmt::join(seed.invariants, ","),
                       seed.failure_file);
  }
  return out;
}

nlohmann::json ToJson(const SweepResult& result, const SweepOptions& options) {
  nlohmann::json seeds = nlohmann::json::array();
  for (const SeedResult& seed : result.seeds) {
    seeds.push_back({{"seed", seed.seed},
                     {"verdict", seed.verdict},
                     {"invariants", seed.invariants},
                     {"trace_hash", fmt::format("{:016x}", seed.trace_hash)},
                     {"sim_time_us", seed.sim_us},
                     {"fault_hits", seed.fault_hits},
                     {"failure_file", seed.failure_file},
                     {"message", seed.message}});
  }
  return {{"mutant", options.mutant ? nlohmann::json(*options.mutant) : nlohmann::json(nullptr)},
          {"backend", options.backend},
          {"compare_model", options.compare_model},
          {"seed_start", options.seed_start},
          {"seeds_total", options.seeds},
          {"shard", fmt::format("{}/{}", options.shard_index, options.shard_count)},
          {"wall_s", result.wall_s},
          {"never_fired", result.never_fired},
          {"seeds", seeds}};
}

std::string ToJunit(const SweepResult& result, const SweepOptions& options) {
  size_t failures = 0;
  for (const SeedResult& seed : result.seeds) failures += seed.verdict == "pass" ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuite name=\"durasim explore{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     options.mutant ? " " + XmlEscape(*options.mutant) : "", result.seeds.size(), failures,
                     result.wall_s);
  for (const SeedResult& seed : result.seeds) {
    out += fmt::format("  <testcase classname=\"explore\" name=\"seed_{}\">", seed.seed);
    if (seed.verdict != "pass") {
      out += fmt::format("<failure message=\"{} [{}] {}\">{}</failure>", seed.verdict,
                         XmlEscape(fmt::format("{}", fmt::join(seed.invariants, ","))), XmlEscape(seed.failure_file),
                         XmlEscape(seed.message));
    }
    out += "</testcase>\n";
  }
  out += "</testsuite>\n";
  return out;
}

}  // namespace

int ExitCodeFor(const SweepResult& result, bool require_coverage) {
  bool violation = false, liveness = false, determinism = false, error = false;
  for (const SeedResult& seed : result.seeds) {
    if (seed.verdict == "error") error = true;
    if (seed.verdict == "stuck") liveness = true;
    for (const std::string& invariant : seed.invariants) {
      if (invariant == "determinism") {
        determinism = true;
      } else if (invariant == "liveness") {
        liveness = true;
      } else {
        violation = true;
      }
    }
  }
  if (error) return kExitError;
  if (determinism) return kExitDeterminism;
  if (violation) return kExitViolation;
  if (liveness) return kExitLiveness;
  if (require_coverage && !result.never_fired.empty()) return kExitCoverage;
  return 0;
}

SweepResult SweepSeeds(const SweepOptions& options) { return Sweep(options).Run(); }

int RunSweep(const SweepOptions& options) {
  std::cout << fmt::format("explore: seeds {}..{} shard {}/{} jobs {} mutant {} backend {}{}\n", options.seed_start,
                           options.seed_start + options.seeds - 1, options.shard_index, options.shard_count,
                           options.jobs, options.mutant.value_or("none"), options.backend,
                           options.compare_model ? " compared with the model" : "");
  const SweepResult result = Sweep(options).Run();
  // Reports first: whatever happens next, the run is written down.
  if (!options.report_json_path.empty()) {
    const Status written = WriteFile(options.report_json_path, ToJson(result, options).dump(2) + "\n");
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }
  if (!options.junit_path.empty()) {
    const Status written = WriteFile(options.junit_path, ToJunit(result, options));
    if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
  }
  std::cout << Summary(result);
  return ExitCodeFor(result, options.require_coverage);
}

}  // namespace durasim
