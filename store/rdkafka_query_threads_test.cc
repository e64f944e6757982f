// Tests of the kept threads of the client's abandonable calls
// (rdkafka_query_threads.h).
#include "store/rdkafka_query_threads.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "store/rdkafka_thread_mask.h"

namespace durasim::rdkafka {
namespace {

constexpr std::chrono::seconds kPatience{5};

// Strategy: a call stuck in its thread (an abandoned query) does not hold up
// the next call, which gets a thread of its own; once both returned, later
// calls run on those kept threads, not on new ones.
TEST(QueryThreadsTest, AStuckCallHoldsUpNoOtherAndIdleThreadsAreKept) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<std::thread::id> stuck_on;
  std::future<std::thread::id> stuck_id = stuck_on.get_future();
  ASSERT_TRUE(RunOnQueryThread([&stuck_on, released] {
                stuck_on.set_value(std::this_thread::get_id());
                released.wait();
              }).ok());
  ASSERT_EQ(stuck_id.wait_for(kPatience), std::future_status::ready);

  std::promise<std::thread::id> next_on;
  std::future<std::thread::id> next_id = next_on.get_future();
  ASSERT_TRUE(RunOnQueryThread([&next_on] { next_on.set_value(std::this_thread::get_id()); }).ok());
  ASSERT_EQ(next_id.wait_for(kPatience), std::future_status::ready) << "the stuck call held up the next one";
  const std::thread::id first = stuck_id.get();
  const std::thread::id second = next_id.get();
  EXPECT_NE(first, second);

  release.set_value();
  for (int i = 0; i < 3; ++i) {
    // A thread counts itself idle again just after its call returns: give
    // the threads of the calls before this one that moment.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::promise<std::thread::id> later_on;
    std::future<std::thread::id> later_id = later_on.get_future();
    ASSERT_TRUE(RunOnQueryThread([&later_on] { later_on.set_value(std::this_thread::get_id()); }).ok());
    ASSERT_EQ(later_id.wait_for(kPatience), std::future_status::ready);
    const std::thread::id on = later_id.get();
    EXPECT_TRUE(on == first || on == second) << "call " << i << " started a thread although two were idle";
  }
}

// The CPUs the calling thread may run on.
std::vector<int> OwnCpus() {
  const std::optional<cpu_set_t> mask = CallingThreadMask();
  EXPECT_TRUE(mask.has_value());
  return mask ? CpusOf(*mask) : std::vector<int>{};
}

// The CPUs a call made from a thread pinned to `cpu` ran on.
std::vector<int> CallCpusFromThreadPinnedTo(int cpu) {
  std::vector<int> seen;
  std::thread caller([&] {
    ASSERT_TRUE(SetCallingThreadMask(MaskOfCpu(cpu)).ok());
    std::promise<std::vector<int>> ran_on;
    std::future<std::vector<int>> cpus = ran_on.get_future();
    ASSERT_TRUE(RunOnQueryThread([&ran_on] { ran_on.set_value(OwnCpus()); }).ok());
    ASSERT_EQ(cpus.wait_for(kPatience), std::future_status::ready);
    seen = cpus.get();
  });
  caller.join();
  return seen;
}

// Strategy: callers pinned to different CPUs, one after the other, so the
// second call finds the first one's kept thread idle: each call runs on its
// own caller's CPU, whichever caller's mask the thread was started with.
TEST(QueryThreadsTest, ACallRunsOnItsCallersCpus) {
  const std::vector<int> cpus = OwnCpus();
  ASSERT_FALSE(cpus.empty());
  if (cpus.size() < 2) GTEST_SKIP() << "one CPU: every thread runs on it, nothing to tell apart";
  for (const int cpu : {cpus.front(), cpus.back(), cpus.front()}) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the last call's thread idle again
    EXPECT_EQ(CallCpusFromThreadPinnedTo(cpu), std::vector<int>{cpu});
  }
  // And an unpinned caller's call may run anywhere it may.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::promise<std::vector<int>> ran_on;
  std::future<std::vector<int>> free_cpus = ran_on.get_future();
  ASSERT_TRUE(RunOnQueryThread([&ran_on] { ran_on.set_value(OwnCpus()); }).ok());
  ASSERT_EQ(free_cpus.wait_for(kPatience), std::future_status::ready);
  EXPECT_EQ(free_cpus.get(), cpus);
}

}  // namespace
}  // namespace durasim::rdkafka
