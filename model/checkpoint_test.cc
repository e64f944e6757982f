// Tests of checkpoints: the union list of recovery markers, and the
// phases the storage moves them through.
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

Checkpoint Taken(const std::string& id) {
  Checkpoint checkpoint;
  checkpoint.id = id;
  return checkpoint;
}

// Strategy: completing cp3 subsumes cp1 and cp2, taken before it and still
// pending, but not cp4 taken after it nor cp0 completed already; a subsumed
// one still takes its abort notice, and only the pending ones count as
// never notified. Completing a subsumed one is a bug the storage refuses.
TEST(CheckpointTest, ACompletionSubsumesEveryEarlierPendingCheckpoint) {
  CheckpointStorage storage;
  for (const char* id : {"cp0", "cp1", "cp2", "cp3", "cp4"}) storage.Save(Taken(id));
  storage.MarkCompleted("cp0");
  storage.MarkCompleted("cp3");
  EXPECT_EQ(storage.Find("cp0")->phase, Checkpoint::Phase::kCompleted);
  EXPECT_EQ(storage.Find("cp1")->phase, Checkpoint::Phase::kSubsumed);
  EXPECT_EQ(storage.Find("cp2")->subsumed_by, "cp3");
  EXPECT_EQ(storage.Find("cp4")->phase, Checkpoint::Phase::kTaken);
  EXPECT_EQ(storage.never_notified(), 3U);  // cp1, cp2 (no abort notice yet), cp4
  EXPECT_EQ(storage.latest_completed(), "cp3");
  EXPECT_EQ(storage.previous_completed(), "cp0");
  EXPECT_DEATH(storage.MarkCompleted("cp1"), "checkpoint cp1 completed after cp3 subsumed it");
  EXPECT_DEATH(storage.Save(Taken("cp4")), "checkpoint cp4 taken twice");
}

}  // namespace
}  // namespace durasim
