// Strategy: LogLifecycle's retention and staleness rules: records older
// than the retention expire from the log start up to the first young one;
// a marker is stale when one of its offsets lies below its partition's log
// start, or when the topic was re-created since its checkpoint.
#include "model/log_lifecycle.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

using std::chrono::milliseconds;

TEST(LogLifecycleTest, RetentionExpiresAPrefixOfOldRecords) {
  LogLifecycle lifecycle(2);
  lifecycle.NoteAppend(0, 0, milliseconds(0));
  lifecycle.NoteAppend(0, 1, milliseconds(10));
  lifecycle.NoteAppend(0, 2, milliseconds(30));
  lifecycle.NoteAppend(1, 0, milliseconds(40));
  using Expired = std::vector<std::pair<int32_t, int64_t>>;
  EXPECT_EQ(lifecycle.Expired(milliseconds(50), milliseconds(50)), Expired{});
  EXPECT_EQ(lifecycle.Expired(milliseconds(61), milliseconds(50)), (Expired{{0, 2}}));
  lifecycle.NoteDeleted(0, 2);
  EXPECT_EQ(lifecycle.start(0), 2);
  EXPECT_EQ(lifecycle.Expired(milliseconds(200), milliseconds(50)), (Expired{{0, 3}, {1, 1}}));
}

TEST(LogLifecycleTest, AMarkerIsStaleBelowTheLogStartOrAfterARecreation) {
  LogLifecycle lifecycle(2);
  lifecycle.NoteDeleted(1, 3);
  const RecoveryMarker at_start = MarkerOf({"t", "1"}, {{0, 0}, {1, 3}});
  const RecoveryMarker below = MarkerOf({"t", "1"}, {{0, 0}, {1, 2}});
  EXPECT_FALSE(lifecycle.WhyStale(at_start, 1).has_value());
  ASSERT_TRUE(lifecycle.WhyStale(below, 1).has_value());
  EXPECT_EQ(*lifecycle.WhyStale(below, 1), "partition 1: the marker's offset 2 is below the log start 3");
  EXPECT_TRUE(lifecycle.WhyStale(at_start, 0).has_value());  // taken in another incarnation
}

}  // namespace
}  // namespace durasim
