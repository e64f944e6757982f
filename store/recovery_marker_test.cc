// Strategy: CheckMarker against a topic "t" incarnation "2" with partitions
// [0, 10) and [5, 5): each rejection names what it found; a marker inside
// the log passes; a marker prints as its offsets only.
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
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 0}}), kTopic, kOffsets),
                   "partitions {0} do not match the topic's partitions {0, 1}"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 0}, {1, 4}}), kTopic, kOffsets),
                   "offset 4 for partition 1 is outside the log [5, 5]: below the log start"));
  EXPECT_TRUE(Says(CheckMarker(MarkerOf(kTopic, {{0, 11}, {1, 5}}), kTopic, kOffsets),
                   "offset 11 for partition 0 is outside the log [0, 10]: past the log end"));
}

TEST(RecoveryMarkerTest, PrintsAsItsOffsets) {
  EXPECT_EQ(fmt::format("{}", MarkerOf(kTopic, {{0, 3}, {1, 0}})), "{0: 3, 1: 0}");
}

}  // namespace
}  // namespace durasim
