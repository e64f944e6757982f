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

TEST(LogLifecycleTest, PartitionsAddedSinceTheMarkerAreReadFromZero) {
  // Strategy: a marker of partition 0 on a topic grown to 3 partitions is
  // fresh while the new partitions start at 0; records deleted from one
  // make it stale; a committed cleanup's tombstone on a new partition counts
  // wherever it lies (the rebuild reads all of it).
  LogLifecycle lifecycle(1);
  lifecycle.NotePartitionsAdded(2);
  EXPECT_EQ(lifecycle.partitions(), 3);
  const RecoveryMarker before = MarkerOf({"t", "1"}, {{0, 0}});
  EXPECT_FALSE(lifecycle.WhyStale(before, 1).has_value());
  lifecycle.NoteAppend(LogRecord{2, 0, EncodeRecordKey(StateKey{"a", 1, 7, 9}), ""}, milliseconds(0));
  lifecycle.NoteCommittedPrune({{"a", 1}});
  ASSERT_TRUE(lifecycle.WhyStale(before, 1).has_value());
  EXPECT_FALSE(lifecycle.WhyStale(before, 1, {{"a", 1}}).has_value());
  lifecycle.NoteDeleted(1, 2);
  ASSERT_TRUE(lifecycle.WhyStale(before, 1, {{"a", 1}}).has_value());
  EXPECT_EQ(*lifecycle.WhyStale(before, 1, {{"a", 1}}),
            "partition 1 was added after the checkpoint and its records below offset 2 were deleted");
  EXPECT_FALSE(lifecycle.WhyStale(MarkerOf({"t", "1"}, {{0, 0}, {1, 2}, {2, 1}}), 1, {{"a", 1}}).has_value());
}

TEST(LogLifecycleTest, ExpiredTombstonesStayStaleAndCleanupRecordsCount) {
  // Strategy: a tombstone gets a horizon at the compaction that reaches it,
  // expires at the horizon, and once removed still makes an older marker
  // stale; a cleanup record of a committed cleanup says the same for its key.
  LogLifecycle lifecycle(1);
  const std::string a1 = EncodeRecordKey(StateKey{"a", 1, 7, 9});
  lifecycle.NoteAppend(LogRecord{0, 3, EncodeCleanupKey("a"), "1"}, milliseconds(0));
  lifecycle.NoteAppend(LogRecord{0, 4, a1, ""}, milliseconds(0));
  lifecycle.NoteCommittedPrune({{"a", 1}});
  EXPECT_FALSE(lifecycle.TombstoneExpired(0, 4, milliseconds(100)));  // no compaction reached it yet
  lifecycle.StampTombstones(milliseconds(50));
  EXPECT_FALSE(lifecycle.TombstoneExpired(0, 4, milliseconds(49)));
  EXPECT_TRUE(lifecycle.TombstoneExpired(0, 4, milliseconds(50)));
  lifecycle.NoteTombstonesExpired({{0, 4}});
  EXPECT_TRUE(lifecycle.Removed(0, 4));
  const RecoveryMarker older = MarkerOf({"t", "1"}, {{0, 0}});
  ASSERT_TRUE(lifecycle.WhyStale(older, 1, {}).has_value());
  EXPECT_FALSE(lifecycle.WhyStale(older, 1, {{"a", 1}}).has_value());
  // The cleanup record alone (its tombstone superseded, say) is enough.
  lifecycle.NoteCompacted({{0, 4}});
  ASSERT_TRUE(lifecycle.WhyStale(older, 1, {}).has_value());
  EXPECT_EQ(*lifecycle.WhyStale(older, 1, {}),
            "partition 0 offset 3: a committed cleanup's record removes key \"a\" up to sequence number 1, which "
            "the checkpoint still needs");
  EXPECT_FALSE(lifecycle.WhyStale(MarkerOf({"t", "1"}, {{0, 5}}), 1, {}).has_value());  // below the marker
}

}  // namespace
}  // namespace durasim
