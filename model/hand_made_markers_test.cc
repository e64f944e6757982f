// Unit tests for markers written by hand: what each spec builds from the
// checkpoint's own marker, and which lists every store must reject.
#include "model/hand_made_markers.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

const TopicIdentity kTopic{"state", "model-1"};

RecoveryMarker Own() {
  RecoveryMarker own = MarkerOf(kTopic, {{0, 3}, {1, 5}});
  own.completed = {{"a", 1}};
  return own;
}

TEST(HandMadeMarkersTest, UnstatedFieldsAreTheCheckpointsOwn) {
  // Strategy: an empty spec is the checkpoint's marker; log_end takes the
  // ends of its partitions only; stated offsets replace them; version 1
  // drops the topic and the boundaries.
  HandMadeMarkerSpec same;
  HandMadeMarkerSpec at_end;
  at_end.offsets = HandMadeMarkerSpec::Offsets::kLogEnd;
  HandMadeMarkerSpec stated;
  stated.offsets = HandMadeMarkerSpec::Offsets::kStated;
  stated.stated = {{0, 1}};
  stated.topic = "other";
  HandMadeMarkerSpec legacy;
  legacy.version = RecoveryMarker::kLegacyVersion;
  const std::vector<RecoveryMarker> built = HandMadeMarkers({same, at_end, stated, legacy}, Own(), {7, 9, 4});
  ASSERT_EQ(built.size(), 4u);
  EXPECT_EQ(built[0], Own());
  EXPECT_EQ(built[1].offsets, (MarkerOffsets{{0, 7}, {1, 9}}));  // partition 2 was added since: not named
  EXPECT_EQ(built[1].topic, kTopic);
  EXPECT_EQ(built[2].offsets, (MarkerOffsets{{0, 1}}));
  EXPECT_EQ(built[2].topic.name, "other");
  EXPECT_EQ(built[3].version, RecoveryMarker::kLegacyVersion);
  EXPECT_EQ(built[3].topic, TopicIdentity{});
  EXPECT_TRUE(built[3].completed.empty());
  EXPECT_EQ(built[3].offsets, Own().offsets);
  EXPECT_EQ(DescribeHandMadeMarker(built[1], kTopic), "v2 {0: 7, 1: 9}");
  EXPECT_EQ(DescribeHandMadeMarker(built[2], kTopic), "v2 topic=\"other\" {0: 1}");
  EXPECT_EQ(DescribeHandMadeMarker(built[3], kTopic), "v1 {0: 3, 1: 5}");
}

TEST(HandMadeMarkersTest, TheListsEveryStoreMustRejectAreNamed) {
  // Strategy: each rule of WhyHandMadeUnusable, and lists it passes.
  const std::vector<int64_t> ends = {7, 9};
  RecoveryMarker legacy = Own();
  legacy.version = RecoveryMarker::kLegacyVersion;
  legacy.topic = {};
  RecoveryMarker future = Own();
  future.version = 3;
  RecoveryMarker other = Own();
  other.topic.name = "other";
  RecoveryMarker past_end = Own();
  past_end.offsets = {{0, 8}, {1, 9}};
  RecoveryMarker gap = Own();
  gap.offsets = {{1, 0}};
  EXPECT_FALSE(WhyHandMadeUnusable({Own(), legacy}, kTopic, false, ends).has_value());
  EXPECT_EQ(WhyHandMadeUnusable({Own(), legacy}, kTopic, true, ends),
            "hand-made marker 2 is a version-1 marker, without the completed boundaries a store with tombstones needs");
  EXPECT_EQ(WhyHandMadeUnusable({future}, kTopic, false, ends), "hand-made marker 1 has version 3, which no store writes");
  EXPECT_EQ(WhyHandMadeUnusable({other}, kTopic, false, ends),
            "hand-made marker 1 names topic \"other\", not the state topic");
  EXPECT_EQ(WhyHandMadeUnusable({past_end}, kTopic, false, ends),
            "the hand-made markers' offset 8 for partition 0 is past its end 7");
  // The smaller offset of another entry makes the merged marker fit.
  EXPECT_FALSE(WhyHandMadeUnusable({past_end, Own()}, kTopic, false, ends).has_value());
  EXPECT_TRUE(WhyHandMadeUnusable({gap}, kTopic, false, ends).has_value());
  EXPECT_TRUE(WhyHandMadeUnusable({}, kTopic, false, ends).has_value());
}

}  // namespace
}  // namespace durasim
