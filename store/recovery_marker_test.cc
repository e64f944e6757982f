// Strategy: CheckMarker against a topic "t" incarnation "2" with partitions
// [0, 10) and [5, 5): each rejection names what it found; a marker inside
// the log passes; a marker of fewer partitions (0..n-1) passes when the
// partitions past it, added since, start at offset 0; a marker prints as
// its offsets only.
#include "store/recovery_marker.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

const TopicIdentity kTopic{"t", "2"};
const std::vector<PartitionOffsets> kOffsets{{0, 10}, {5, 5}};

bool Says(const Status& status, const std::string& part) {
  return status.code() == StatusCode::kInvalidRecovery && status.message().find(part) != std::string::npos;
}

TEST(RecoveryMarkerTest, AMarkerInsideTheLogPasses) {
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 0}, {1, 5}}), kTopic, kOffsets).ok());
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 10}, {1, 5}}), kTopic, kOffsets).ok());
}

TEST(RecoveryMarkerTest, EachRejectionNamesWhatItFound) {
  RecoveryMarker future = MarkerOf(kTopic, {{0, 0}, {1, 5}});
  future.version = 3;
  EXPECT_TRUE(Says(CheckMarker(future, kTopic, kOffsets), "version 3 is not supported"));
  future.version = 0;
  EXPECT_TRUE(Says(CheckMarker(future, kTopic, kOffsets), "version 0 is not supported"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf({"other", "2"}, {{0, 0}, {1, 5}}), kTopic, kOffsets),
                   "is for topic \"other\", not the one the store reads"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf({"t", "1"}, {{0, 0}, {1, 5}}), kTopic, kOffsets),
                   "an earlier incarnation of the topic, which was deleted and created again"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{1, 5}}), kTopic, kOffsets),
                   "partitions {1} are not a partition set of the topic, whose partitions are {0, 1}"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 0}, {1, 5}, {2, 0}}), kTopic, kOffsets),
                   "partitions {0, 1, 2} are not a partition set of the topic, whose partitions are {0, 1}"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {}), kTopic, kOffsets), "partitions {} are not a partition set"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 0}}), kTopic, kOffsets),
                   "partition 1 was added after the checkpoint (recovery marker partitions {0}), and its log starts "
                   "at 5"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 0}, {1, 4}}), kTopic, kOffsets),
                   "offset 4 for partition 1 is outside the log [5, 5]: below the log start"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 11}, {1, 5}}), kTopic, kOffsets),
                   "offset 11 for partition 0 is outside the log [0, 10]: past the log end"));
}

TEST(RecoveryMarkerTest, PartitionsAddedSinceTheMarkerPassWhenTheyBeginAtZero) {
  const std::vector<PartitionOffsets> grown{{0, 10}, {5, 5}, {0, 3}, {0, 0}};
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}}), kTopic, grown).ok());
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}, {2, 3}}), kTopic, grown).ok());
  const std::vector<PartitionOffsets> deleted{{0, 10}, {5, 5}, {1, 3}};
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}}), kTopic, deleted),
                   "partition 2 was added after the checkpoint"));
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}, {2, 1}}), kTopic, deleted).ok());
}

TEST(RecoveryMarkerTest, RejectingAddedPartitionsRefusesEveryMarkerOfFewerPartitions) {
  // Strategy: with reject_added_partitions (the real store's #1101 check),
  // the markers the default reads (added partitions at 0), a legacy one
  // among them, are a mismatch naming both sets; a marker of every
  // partition still passes; the checks before it (topic, incarnation) and
  // the added partition's deleted start are not hidden by it.
  const std::vector<PartitionOffsets> grown{{0, 10}, {5, 5}, {0, 3}};
  const std::string mismatch =
      "recovery marker partitions {0, 1} do not match the topic's partitions {0, 1, 2}: this store rejects a "
      "changed partition set";
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}}), kTopic, grown, true), mismatch));
  RecoveryMarker legacy = MarkerOf({"", ""}, {{0, 4}, {1, 5}});
  legacy.version = RecoveryMarker::kLegacyVersion;
  EXPECT_TRUE(Says(CheckMarker(legacy, kTopic, grown, true), mismatch));
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}, {2, 0}}), kTopic, grown, true).ok());
  EXPECT_TRUE(Says(CheckMarker(MarkerOf({"t", "1"}, {{0, 4}, {1, 5}}), kTopic, grown, true), "earlier incarnation"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{1, 5}}), kTopic, grown, true), "are not a partition set"));
  EXPECT_TRUE(CheckMarker(MarkerOf(kTopic, {{0, 4}, {1, 5}}), kTopic, grown, false).ok());
}

TEST(RecoveryMarkerTest, PrintsAsItsOffsets) {
  EXPECT_EQ(fmt::format("{}", MarkerOf(kTopic, {{0, 3}, {1, 0}})), "{0: 3, 1: 0}");
}

TEST(RecoveryMarkerTest, ALegacyMarkerIsCheckedByItsOffsetsOnly) {
  // Strategy: version 1, the bare offset map Flink Agents wrote before
  // #1101, names no topic: whatever topic it carries, its offsets decide.
  RecoveryMarker legacy = MarkerOf({"other", "2"}, {{0, 0}, {1, 5}});
  legacy.version = RecoveryMarker::kLegacyVersion;
  EXPECT_TRUE(CheckMarker(legacy, kTopic, kOffsets).ok());
  legacy.offsets = {{0, 11}, {1, 5}};
  EXPECT_TRUE(Says(CheckMarker(legacy, kTopic, kOffsets), "past the log end"));
}

TEST(RecoveryMarkerTest, MergingAUnionListTakesEachPartitionsSmallestOffset) {
  // Strategy: a current marker and a legacy one merge into a current marker
  // of the current one's topic, per partition the smaller offset, the
  // completed boundaries of both.
  RecoveryMarker current = MarkerOf(kTopic, {{0, 7}, {1, 5}});
  current.completed = {{"a", 2}};
  RecoveryMarker legacy = MarkerOf({}, {{0, 3}, {1, 9}});
  legacy.version = RecoveryMarker::kLegacyVersion;
  const Result<RecoveryMarker> merged = MergeMarkers({legacy, current});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(merged->version, RecoveryMarker::kVersion);
  EXPECT_EQ(merged->topic, kTopic);
  EXPECT_EQ(merged->offsets, (MarkerOffsets{{0, 3}, {1, 5}}));
  EXPECT_EQ(merged->completed, (CompletedBoundaries{{"a", 2}}));
  EXPECT_TRUE(HasLegacyMarker({legacy, current}));
  EXPECT_FALSE(HasLegacyMarker({current}));
  const Result<RecoveryMarker> legacy_only = MergeMarkers({legacy});
  ASSERT_TRUE(legacy_only.ok());
  EXPECT_EQ(legacy_only->version, RecoveryMarker::kLegacyVersion);
}

TEST(RecoveryMarkerTest, AListOfOneMergesIntoItsMarker) {
  // Strategy: the merge of a one-entry list (its fast path) is what merging
  // entry by entry gives: the marker itself; a legacy entry without its
  // topic (version 1 names none); an entry of an unknown version rejected.
  RecoveryMarker current = MarkerOf(kTopic, {{0, 7}, {1, 5}});
  current.completed = {{"a", 2}, {"b", 1}};
  const Result<RecoveryMarker> merged = MergeMarkers({current});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(*merged, current);
  RecoveryMarker legacy = MarkerOf(kTopic, {{0, 3}});
  legacy.version = RecoveryMarker::kLegacyVersion;
  const Result<RecoveryMarker> legacy_merged = MergeMarkers({legacy});
  ASSERT_TRUE(legacy_merged.ok());
  EXPECT_EQ(legacy_merged->version, RecoveryMarker::kLegacyVersion);
  EXPECT_EQ(legacy_merged->topic, TopicIdentity{});
  EXPECT_EQ(legacy_merged->offsets, legacy.offsets);
  RecoveryMarker future = current;
  future.version = 3;
  EXPECT_TRUE(Says(MergeMarkers({future}).status(), "recovery marker 1 of 1: version 3 is not supported"));
}

TEST(RecoveryMarkerTest, AUnionListItCannotMergeIsRejectedNamingTheEntry) {
  // Strategy: an empty list, an entry of a version no store writes, and
  // current entries of two topics or two incarnations are each rejected.
  RecoveryMarker current = MarkerOf(kTopic, {{0, 7}});
  RecoveryMarker future = current;
  future.version = 3;
  EXPECT_TRUE(Says(MergeMarkers({}).status(), "the recovery marker list is empty"));
  EXPECT_TRUE(Says(MergeMarkers({current, future}).status(), "recovery marker 2 of 2: version 3 is not supported"));
  EXPECT_TRUE(Says(MergeMarkers({current, MarkerOf({"other", "i"}, {{0, 1}})}).status(),
                   "recovery marker 2 of 2 is for topic \"other\""));
  EXPECT_TRUE(Says(MergeMarkers({current, MarkerOf({kTopic.name, "older"}, {{0, 1}})}).status(),
                   "(another incarnation)"));
}

}  // namespace
}  // namespace durasim
