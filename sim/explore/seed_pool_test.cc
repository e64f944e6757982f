// Tests of the seed pool's CPU pins: with pin_workers each worker runs its
// seeds on one CPU of its own (while there are CPUs enough), and without it
// the workers keep the process's CPUs.
#include "sim/explore/seed_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sim/cpu_pin.h"

namespace durasim {
namespace {

// The CPU masks the seeds ran under, by the worker thread that ran them.
// Each worker's first seed waits (up to 5 s) until every worker has one, so
// that every worker runs a seed.
std::map<std::thread::id, std::set<std::vector<int>>> MasksOfSeeds(int jobs, bool pin_workers, uint64_t seeds) {
  std::vector<uint64_t> all;
  for (uint64_t seed = 1; seed <= seeds; ++seed) all.push_back(seed);
  SeedPoolOptions options;
  options.jobs = jobs;
  options.progress = false;
  options.pin_workers = pin_workers;
  std::mutex mutex;
  std::condition_variable arrived;
  bool gave_up = false;  // a worker never came: guarded by mutex
  std::map<std::thread::id, std::set<std::vector<int>>> masks;
  const SweepResult result = RunSeedPool(all, options, [&](uint64_t seed) {
    std::unique_lock<std::mutex> lock(mutex);
    masks[std::this_thread::get_id()].insert(CallingThreadCpus());
    arrived.notify_all();
    if (!gave_up && !arrived.wait_for(lock, std::chrono::seconds(5),
                                      [&] { return masks.size() >= static_cast<size_t>(jobs); })) {
      gave_up = true;  // the test fails on the count; the later seeds need not wait too
    }
    SeedResult out;
    out.seed = seed;
    return out;
  });
  EXPECT_EQ(result.seeds.size(), seeds);
  return masks;
}

TEST(SeedPoolTest, PinnedWorkersRunEachOnOneCpuOfItsOwn) {
  const size_t cpus = CallingThreadCpus().size();
  const int jobs = static_cast<int>(std::min<size_t>(cpus, 4));
  std::set<int> used;
  const auto masks = MasksOfSeeds(jobs, /*pin_workers=*/true, 64);
  for (const auto& [worker, worker_masks] : masks) {
    ASSERT_EQ(worker_masks.size(), 1u);  // every seed of a worker on the same mask
    const std::vector<int>& mask = *worker_masks.begin();
    ASSERT_EQ(mask.size(), 1u);  // of one CPU
    used.insert(mask.front());
  }
  EXPECT_EQ(masks.size(), static_cast<size_t>(jobs));  // every worker ran a seed
  EXPECT_EQ(used.size(), masks.size());                 // each on a CPU of its own
  EXPECT_EQ(CallingThreadCpus().size(), cpus);  // the caller is left as it was
}

TEST(SeedPoolTest, UnpinnedWorkersKeepEveryCpu) {
  const std::vector<int> cpus = CallingThreadCpus();
  for (const auto& [worker, worker_masks] : MasksOfSeeds(2, /*pin_workers=*/false, 8)) {
    EXPECT_EQ(worker_masks, std::set<std::vector<int>>{cpus});
  }
}

}  // namespace
}  // namespace durasim
