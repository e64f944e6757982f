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
  RecoveryMarker legacy = future;
  legacy.version = 1;
  EXPECT_TRUE(Says(CheckMarker(legacy, kTopic, kOffsets), "version 1 is not supported"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf({"other", "2"}, {{0, 0}, {1, 5}}), kTopic, kOffsets),
                   "is for topic \"other\", the store reads \"t\""));
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

TEST(RecoveryMarkerTest, PrintsAsItsOffsets) {
  EXPECT_EQ(fmt::format("{}", MarkerOf(kTopic, {{0, 3}, {1, 0}})), "{0: 3, 1: 0}");
}

}  // namespace
}  // namespace durasim
