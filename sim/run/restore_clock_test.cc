#include "sim/run/restore_clock.h"

#include <gtest/gtest.h>

#include <thread>

namespace durasim {
namespace {

TEST(RestoreClockTest, TimesEachRebuildByAttemptAndSubtask) {
  RestoreClock clock;
  clock.OnAttemptStart(2);
  clock.OnRebuildStart(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  clock.OnRebuild(Status::Ok(), false, false, 0);
  clock.OnRebuildStart(0);
  clock.OnRebuild(Status::Ok(), false, false, 0);
  EXPECT_GE(clock.WallUs(2, 1), 5000);
  EXPECT_EQ(clock.WallUs(1, 1), 0);  // attempt 1 did not rebuild
  EXPECT_EQ(clock.WallUs(2, 2), 0);
}

TEST(RestoreClockTest, AnEndWithoutItsStartIsABug) {
  RestoreClock clock;
  EXPECT_DEATH(clock.OnRebuild(Status::Ok(), false, false, 0), "");
}

}  // namespace
}  // namespace durasim
