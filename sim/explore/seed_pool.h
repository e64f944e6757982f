// The seed pool: runs one function per seed on worker threads, hands seeds
// out in order, stops at a wall-clock budget or (on request) at the first
// failing seed, and reports progress. Threads and the wall clock live here:
// a seed's run is the same whichever worker runs it and however long it
// takes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/explore/explore_report.h"

namespace durasim {

struct SeedPoolOptions {
  int jobs = 1;
  double time_budget_s = 0;  // 0: no budget
  // Stop starting seeds once one failed; every seed before it still runs, so
  // the first failing seed (in seed order) is the same for any job count.
  bool stop_on_first_failure = false;
  bool progress = true;       // false: no progress output at all
  bool progress_tty = false;  // a redrawn progress bar instead of periodic lines
  // Asked before each seed starts: true stops the pool like a budget (the
  // sweep's InfraGuard: infrastructure failures in a row, sim/run/infra_guard.h).
  std::function<bool()> stop;
  // Pin worker j, and the threads it starts, to one CPU (sim/cpu_pin.h):
  // for runs that drive librdkafka's threads. A pin the kernel refuses is
  // said once on stderr and the workers run unpinned.
  bool pin_workers = false;
};

// An interrupt (sim/interrupt.h) stops it like a budget: no new
// seed starts, the running ones finish, `interrupted` is set.

// Seeds seed_start .. seed_start + seeds - 1 that shard `shard_index` of
// `shard_count` runs: (seed - seed_start) % shard_count == shard_index.
std::vector<uint64_t> ShardSeeds(uint64_t seeds, uint64_t seed_start, int shard_index, int shard_count);

// Runs `run_seed` for `seeds`. Returns the results of the seeds that ran,
// in the order of `seeds`, the wall time, and whether the budget ran out
// (never_fired is left empty). `run_seed` is called from several threads.
SweepResult RunSeedPool(const std::vector<uint64_t>& seeds, const SeedPoolOptions& options,
                        const std::function<SeedResult(uint64_t seed)>& run_seed);

}  // namespace durasim
