// Tests of the interrupt flag: the seed pool starts no seed after it.
#include "sim/interrupt.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>

#include "sim/exit_codes.h"
#include "sim/explore/seed_pool.h"

namespace durasim {
namespace {

// Strategy: seeds run until the flag is set (here by the third seed, as a
// signal would), then no new seed starts: the pool reports fewer seeds, all
// of them finished, and interrupted; the exit code is 128 + SIGINT.
TEST(InterruptTest, ThePoolStartsNoSeedAfterASignal) {
  ASSERT_FALSE(Interrupted());
  std::atomic<int> started{0};
  SeedPoolOptions options;
  options.jobs = 1;
  options.progress = false;
  const SweepResult result = RunSeedPool(ShardSeeds(1000, 1, 0, 1), options, [&](uint64_t seed) {
    ++started;
    if (seed == 3) RequestInterrupt(SIGINT);
    SeedResult r;
    r.seed = seed;
    return r;
  });
  EXPECT_TRUE(Interrupted());
  EXPECT_TRUE(result.interrupted);
  EXPECT_EQ(started.load(), 3);
  ASSERT_EQ(result.seeds.size(), 3u);
  EXPECT_EQ(result.seeds.back().seed, 3u);
  EXPECT_EQ(InterruptExitCode(), kExitSigint);
  EXPECT_STREQ(InterruptName(), "SIGINT");
  // The first signal is the one reported.
  RequestInterrupt(SIGTERM);
  EXPECT_EQ(InterruptExitCode(), kExitSigint);
}

}  // namespace
}  // namespace durasim
