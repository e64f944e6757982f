// Tests of CpuPins: a pinned thread runs on its one CPU, threads it starts
// afterwards inherit that CPU (what pins librdkafka's threads), workers take
// the CPUs in turn, and a CPU the kernel refuses is an error, not a crash.
#include "sim/cpu_pin.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <set>
#include <thread>

#include "store/format.h"

namespace durasim {
namespace {

// Runs `body` on a thread of its own, so the test's thread stays unpinned.
template <typename Body>
void OnOwnThread(Body body) {
  std::thread thread(body);
  thread.join();
}

TEST(CpuPinsTest, ListsEachCpuTheCallerMayUseOnce) {
  const std::vector<int> allowed = CallingThreadCpus();
  ASSERT_FALSE(allowed.empty());
  const CpuPins pins = CpuPins::FromCallingThread();
  std::vector<int> listed = pins.cpus();
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, allowed);
}

// Strategy: the rotation on hand-made lists, the start among them, absent
// and unknown (-1), and an empty list.
TEST(CpuPinsTest, WorkersStartAtTheGivenCpuAndGoOnInTurn) {
  EXPECT_EQ(StartingAt({0, 1, 2, 3}, 2), (std::vector<int>{2, 3, 0, 1}));
  EXPECT_EQ(StartingAt({0, 1, 2, 3}, 0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(StartingAt({1, 5}, 5), (std::vector<int>{5, 1}));
  EXPECT_EQ(StartingAt({1, 5}, 3), (std::vector<int>{1, 5}));   // not among them: as given
  EXPECT_EQ(StartingAt({1, 5}, -1), (std::vector<int>{1, 5}));  // sched_getcpu failed
  EXPECT_EQ(StartingAt({}, 0), std::vector<int>{});
}

TEST(CpuPinsTest, APinnedThreadAndTheThreadsItStartsRunOnItsCpu) {
  OnOwnThread([] {
    const CpuPins pins = CpuPins::FromCallingThread();
    const Result<int> cpu = pins.Pin(1);
    ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
    EXPECT_EQ(*cpu, pins.cpus()[1 % pins.cpus().size()]);
    EXPECT_EQ(CallingThreadCpus(), std::vector<int>{*cpu});
    EXPECT_EQ(sched_getcpu(), *cpu);
    std::vector<int> child_cpus;
    OnOwnThread([&] { child_cpus = CallingThreadCpus(); });
    EXPECT_EQ(child_cpus, std::vector<int>{*cpu});
  });
}

TEST(CpuPinsTest, WorkersTakeTheCpusInTurnAndWrapAround) {
  // The order given is the order taken (only this machine's CPUs can be
  // pinned, so the turns are checked on its own list below).
  EXPECT_EQ(CpuPins(std::vector<int>{3, 0, 2}).cpus(), (std::vector<int>{3, 0, 2}));
  const CpuPins here = CpuPins::FromCallingThread();
  std::set<int> seen;
  for (size_t slot = 0; slot < here.cpus().size(); ++slot) {
    OnOwnThread([&] {
      const Result<int> cpu = here.Pin(static_cast<int>(slot));
      ASSERT_TRUE(cpu.ok());
      seen.insert(*cpu);
      const Result<int> again = here.Pin(static_cast<int>(slot + here.cpus().size()));
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(*again, *cpu);  // slot + n is slot's CPU again
    });
  }
  EXPECT_EQ(seen.size(), here.cpus().size());  // n workers, n CPUs
}

TEST(CpuPinsTest, ACpuTheKernelRefusesIsAnErrorAndNoCpuIsKnownIsOneToo) {
  OnOwnThread([] {
    const std::vector<int> before = CallingThreadCpus();
    const Result<int> absent = CpuPins(std::vector<int>{CPU_SETSIZE - 1}).Pin(0);
    if (std::find(before.begin(), before.end(), CPU_SETSIZE - 1) == before.end()) {
      ASSERT_FALSE(absent.ok());
      EXPECT_EQ(absent.status().code(), StatusCode::kUnavailable);
      EXPECT_NE(absent.status().message().find(fmt::format("CPU {}", CPU_SETSIZE - 1)), std::string::npos)
          << absent.status().message();
      EXPECT_EQ(CallingThreadCpus(), before);  // the mask is left as it was
    }
    const Result<int> none = CpuPins(std::vector<int>{}).Pin(0);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.status().code(), StatusCode::kUnavailable);
  });
}

// Strategy: two workers of one pool both refused: one line on stderr, the
// workers go on unpinned (their masks as they were).
TEST(CpuPinsTest, ARefusedWorkerIsSaidOnceAndRunsUnpinned) {
  OnOwnThread([] {
    const std::vector<int> before = CallingThreadCpus();
    if (std::find(before.begin(), before.end(), CPU_SETSIZE - 1) != before.end()) GTEST_SKIP();
    const CpuPins absent(std::vector<int>{CPU_SETSIZE - 1});
    std::once_flag said;
    testing::internal::CaptureStderr();
    PinWorker(absent, 0, "explore", said);
    PinWorker(absent, 1, "explore", said);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, fmt::format("explore: pinning a thread to CPU {}: Invalid argument; worker 0 runs unpinned "
                               "(slower on the mock backend)\n",
                               CPU_SETSIZE - 1));
    EXPECT_EQ(CallingThreadCpus(), before);
  });
}

}  // namespace
}  // namespace durasim
