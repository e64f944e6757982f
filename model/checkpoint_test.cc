// Tests of checkpoints: the union list of recovery markers.
#include "model/checkpoint.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

// Strategy: the union list's minimum takes each partition's smallest offset
// over every subtask's marker, whichever subtask it came from, keeps the
// first marker's topic and unites the subtasks' completed boundaries.
TEST(CheckpointTest, MinimumMarkerIsPerPartition) {
  TopicIdentity topic;
  topic.name = "states";
  topic.incarnation = "3";
  RecoveryMarker first = MarkerOf(topic, {{0, 4}, {1, 9}});
  first.completed = {{"a", 2}};
  RecoveryMarker second = MarkerOf(topic, {{0, 5}, {1, 2}});
  second.completed = {{"b", 1}};
  const RecoveryMarker third = MarkerOf(topic, {{0, 7}, {1, 3}});
  const RecoveryMarker minimum = MinimumMarker({first, second, third});
  EXPECT_EQ(minimum.offsets, (MarkerOffsets{{0, 4}, {1, 2}}));
  EXPECT_EQ(minimum.topic, topic);
  EXPECT_EQ(minimum.version, RecoveryMarker::kVersion);
  EXPECT_EQ(minimum.completed, (CompletedBoundaries{{"a", 2}, {"b", 1}}));
  EXPECT_EQ(MinimumMarker({first}), first);
}

}  // namespace
}  // namespace durasim
