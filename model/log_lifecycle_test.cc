// Strategy: LogLifecycle's retention and staleness rules: records older
// than the retention expire from the log start up to the first young one;
// a marker is stale when one of its offsets lies below its partition's log
// start, or when the topic was re-created since its checkpoint.
#include "model/log_lifecycle.h"

#include <gtest/gtest.h>

#include "store/state_codec.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;

TEST(LogLifecycleTest, RetentionExpiresAPrefixOfOldRecords) {
  LogLifecycle lifecycle(2);
  lifecycle.NoteAppend(LogRecord{0, 0, "k", "v"}, milliseconds(0));
  lifecycle.NoteAppend(LogRecord{0, 1, "k", "v"}, milliseconds(10));
  lifecycle.NoteAppend(LogRecord{0, 2, "k", "v"}, milliseconds(30));
  lifecycle.NoteAppend(LogRecord{1, 0, "k", "v"}, milliseconds(40));
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

TEST(LogLifecycleTest, ACommittedCleanupsTombstonePastTheCheckpointMakesItsMarkerStale) {
  LogLifecycle lifecycle(1);
  const StateKey a2{"a", 2, 7, 9};
  lifecycle.NoteAppend(LogRecord{0, 4, EncodeRecordKey(a2), ""}, milliseconds(0));
  const RecoveryMarker marker = MarkerOf({"t", "1"}, {{0, 2}});
  // No completed checkpoint pruned it (a prune before completion): not stale.
  EXPECT_FALSE(lifecycle.WhyStale(marker, 1, {{"a", 1}}).has_value());
  lifecycle.NoteCommittedPrune({{"a", 2}});
  ASSERT_TRUE(lifecycle.WhyStale(marker, 1, {{"a", 1}}).has_value());
  EXPECT_EQ(*lifecycle.WhyStale(marker, 1, {{"a", 1}}),
            "partition 0 offset 4: a committed cleanup's tombstone removes key \"a\" sequence number 2, which the "
            "checkpoint still needs");
  EXPECT_TRUE(lifecycle.WhyStale(marker, 1, {}).has_value());           // key a unknown at the checkpoint
  EXPECT_FALSE(lifecycle.WhyStale(marker, 1, {{"a", 2}}).has_value());  // finished at the checkpoint
  EXPECT_FALSE(lifecycle.WhyStale(MarkerOf({"t", "1"}, {{0, 5}}), 1, {}).has_value());  // below the marker
}

}  // namespace
}  // namespace durasim
