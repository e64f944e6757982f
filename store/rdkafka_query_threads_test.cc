// Tests of the kept threads of the client's abandonable calls
// (rdkafka_query_threads.h).
#include "store/rdkafka_query_threads.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

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

}  // namespace
}  // namespace durasim::rdkafka
