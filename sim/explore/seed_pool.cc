// Seed pool implementation.
#include "sim/explore/seed_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "sim/cpu_pin.h"
#include "sim/interrupt.h"
#include "sim/wall_seconds.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

using Clock = std::chrono::steady_clock;

class SeedPool {
 public:
  SeedPool(const std::vector<uint64_t>& seeds, const SeedPoolOptions& options,
           const std::function<SeedResult(uint64_t)>& run_seed)
      : seeds_(seeds), options_(options), run_seed_(run_seed) {
    results_.resize(seeds_.size());
    finished_.assign(seeds_.size(), 0);
  }

  SweepResult Run() {
    const Clock::time_point start = start_ = Clock::now();
    std::vector<std::thread> workers;
    workers_left_ = std::max(1, options_.jobs);
    std::optional<CpuPins> pins;
    if (options_.pin_workers) pins = CpuPins::FromCallingThread();
    for (int j = 0; j < std::max(1, options_.jobs); ++j) workers.emplace_back([this, j, &pins] {
      // Before the worker makes anything: the threads librdkafka starts
      // for its runs inherit the pin.
      if (pins.has_value()) PinWorker(*pins, j, "explore", pin_refusal_said_);
      Work();
      {
        std::lock_guard<std::mutex> lock(progress_mutex_);
        --workers_left_;
      }
      workers_done_.notify_all();
    });
    if (options_.progress) ReportProgress(start);
    for (std::thread& worker : workers) worker.join();
    SweepResult result;
    result.wall_s = WallSecondsSince(start);
    result.budget_exhausted = budget_exhausted_;
    result.interrupted = interrupted_;
    for (size_t i = 0; i < seeds_.size(); ++i) {
      if (finished_[i]) result.seeds.push_back(std::move(results_[i]));
    }
    // The workers are joined: every seed counted done is a result reported.
    DURASIM_CHECK_EQ(done_.load(), result.seeds.size());
    return result;
  }

 private:
  void Work() {
    while (true) {
      const size_t index = next_.fetch_add(1);
      if (index >= seeds_.size() || index > first_failure_) return;
      if (Interrupted()) {
        interrupted_ = true;
        return;
      }
      if (options_.time_budget_s > 0 && WallSecondsSince(start_) > options_.time_budget_s) {
        budget_exhausted_ = true;
        return;
      }
      if (options_.stop && options_.stop()) {
        stopped_ = true;
        return;
      }
      results_[index] = run_seed_(seeds_[index]);
      // A signal during the last seeds: the next turn may find none to start.
      if (Interrupted()) interrupted_ = true;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        DURASIM_CHECK(!finished_[index]);  // fetch_add hands each seed to one worker
        finished_[index] = true;
        if (options_.stop_on_first_failure && results_[index].verdict != Verdict::kPass) {
          first_failure_ = std::min<size_t>(first_failure_, index);
        }
      }
      ++done_;
    }
  }

  void ReportProgress(Clock::time_point start) {
    const size_t total = seeds_.size();
    size_t last_printed = 0;
    Clock::time_point last_line = start;
    while (done_ < total && !budget_exhausted_ && !interrupted_ && !stopped_ && workers_left_ > 0) {
      {
        // Woken at once when the last worker ends, so the sweep's wall time
        // is its seeds' and not rounded up to the next progress tick.
        std::unique_lock<std::mutex> lock(progress_mutex_);
        workers_done_.wait_for(lock, std::chrono::milliseconds(200), [this] { return workers_left_ == 0; });
      }
      const size_t done = done_;
      const double elapsed = WallSecondsSince(start);
      const double rate = elapsed > 0 ? done / elapsed : 0;
      if (options_.progress_tty) {
        constexpr size_t kWidth = 30;
        DURASIM_CHECK_LE(done, total);  // the bar's unfilled part is kWidth - filled
        const size_t filled = total == 0 ? kWidth : done * kWidth / total;
        std::cout << fmt::format("\r[{}{}] {}/{} seeds {:.0f} runs/s", std::string(filled, '#'),
                                 std::string(kWidth - filled, '.'), done, total, rate)
                  << std::flush;
      } else if (WallSecondsSince(last_line) >= 5 || done - last_printed >= std::max<size_t>(total / 10, 1)) {
        std::cout << fmt::format("explore: {}/{} seeds, {:.0f} runs/s\n", done, total, rate) << std::flush;
        last_printed = done;
        last_line = Clock::now();
      }
    }
    if (options_.progress_tty) std::cout << "\n";
  }

  const std::vector<uint64_t>& seeds_;
  const SeedPoolOptions& options_;
  const std::function<SeedResult(uint64_t)>& run_seed_;
  std::vector<SeedResult> results_;
  std::vector<char> finished_;
  Clock::time_point start_ = Clock::now();
  std::atomic<size_t> next_{0};
  std::atomic<size_t> done_{0};
  std::atomic<bool> budget_exhausted_{false};
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stopped_{false};  // options_.stop
  std::atomic<int> workers_left_{0};
  std::atomic<size_t> first_failure_{std::numeric_limits<size_t>::max()};  // with stop_on_first_failure
  std::mutex mutex_;
  std::mutex progress_mutex_;  // guards the wait on workers_left_
  std::condition_variable workers_done_;
  std::once_flag pin_refusal_said_;
};

}  // namespace

std::vector<uint64_t> ShardSeeds(uint64_t seeds, uint64_t seed_start, int shard_index, int shard_count) {
  // ParseShard refuses any other: every seed falls in exactly one shard.
  DURASIM_CHECK(0 <= shard_index && shard_index < shard_count);
  std::vector<uint64_t> shard;
  for (uint64_t i = 0; i < seeds; ++i) {
    if (static_cast<int>(i % static_cast<uint64_t>(shard_count)) == shard_index) shard.push_back(seed_start + i);
  }
  return shard;
}

SweepResult RunSeedPool(const std::vector<uint64_t>& seeds, const SeedPoolOptions& options,
                        const std::function<SeedResult(uint64_t seed)>& run_seed) {
  return SeedPool(seeds, options, run_seed).Run();
}

}  // namespace durasim
