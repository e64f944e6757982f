// Tests of the fault plan's counting: across subtasks, by selector, and of
// tombstones.
#include "model/fault_plan.h"

#include <gtest/gtest.h>

#include <vector>

#include "model/identity.h"

namespace durasim {
namespace {

struct Fired {
  size_t armed;
  int64_t nth;
};

FaultPlan PlanRecording(std::vector<Fired>& fired, std::vector<int>& cancelled) {
  FaultPlan::Hooks hooks;
  hooks.crash = [](const std::string&) {};
  hooks.cancel_wait = [&cancelled](const FaultPoint& put) { cancelled.push_back(put.subtask); };
  hooks.corrupt = [](int32_t, int64_t) {};
  hooks.fired = [&fired](size_t armed, FaultKind, int64_t nth, const FaultPoint&) { fired.push_back(Fired{armed, nth}); };
  return FaultPlan(std::move(hooks));
}

// A put of `key`, sequence number `seq`, of the given kind, by `subtask`.
FaultPoint Put(int subtask, PutPoint put = PutPoint::kStart, const std::string& key = "a", int64_t seq = 1,
               std::optional<int> call = std::nullopt) {
  FaultPoint point;
  point.subtask = subtask;
  point.put = put;
  point.state = StateKey{key, seq, 7, ActionHash("act")};
  point.call = call;
  return point;
}

// Strategy: puts of two subtasks interleave (0, 1, 1, 0, 1). An unscoped
// arm counts the job's puts; an arm on subtask 1 counts only subtask 1's.
TEST(FaultPlanTest, AScopedArmCountsOnlyItsSubtasksPoints) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  const size_t job_third = plan.Arm(FaultKind::kRejectPut, 3);
  const size_t subtask_third = plan.Arm(FaultKind::kLoseAck, 3, 1);
  std::vector<FaultPlan::PutFate> fates;
  int64_t ordinal = 0;
  for (int subtask : {0, 1, 1, 0, 1}) fates.push_back(plan.OnProduce(ordinal, Put(subtask)));
  EXPECT_EQ(ordinal, 5);
  EXPECT_EQ(fates, (std::vector<FaultPlan::PutFate>{FaultPlan::PutFate::kDeliver, FaultPlan::PutFate::kDeliver,
                                                     FaultPlan::PutFate::kReject, FaultPlan::PutFate::kDeliver,
                                                     FaultPlan::PutFate::kLoseAck}));
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_EQ(fired[0].armed, job_third);
  EXPECT_EQ(fired[1].armed, subtask_third);
  EXPECT_EQ(fired[1].nth, 3);  // subtask 1's third put is the job's fifth
}

// Strategy: a plan told which kinds the script arms still counts, for an
// announced arm made late, the points before it (its nth is the attempt's
// nth), and refuses an arm of a kind it was not told of, whose points it
// did not keep.
TEST(FaultPlanTest, AnAnnouncedLateArmCountsFromTheAttemptsStart) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  plan.ExpectArms({FaultKind::kRejectPut});
  int64_t ordinal = 0;
  for (int subtask : {0, 1}) EXPECT_EQ(plan.OnProduce(ordinal, Put(subtask)), FaultPlan::PutFate::kDeliver);
  const size_t third = plan.Arm(FaultKind::kRejectPut, 3);
  EXPECT_EQ(plan.OnProduce(ordinal, Put(0)), FaultPlan::PutFate::kReject);
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0].armed, third);
  EXPECT_DEATH(plan.Arm(FaultKind::kCrashAfterPutAcked, 1), "did not announce");
}

// Strategy: a sealed plan (the run without faults) numbers the job's
// writes as an open one does and delivers each, takes every wait, fires
// nothing, no longer needs put points, and refuses to arm; sealing a plan
// with an armed fault is refused too.
TEST(FaultPlanTest, ASealedPlanNumbersWritesAndArmsNothing) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  EXPECT_TRUE(plan.needs_put_points());
  plan.Seal();
  EXPECT_FALSE(plan.needs_put_points());
  int64_t ordinal = 0;
  for (int subtask : {0, 1, 0}) {
    EXPECT_EQ(plan.OnProduce(ordinal, Put(subtask)), FaultPlan::PutFate::kDeliver);
    plan.OnWaitStarted(ordinal);
    plan.OnPersisted(0, ordinal - 1, Put(subtask));
    plan.OnAcked(Put(subtask));
  }
  EXPECT_EQ(ordinal, 3);
  EXPECT_TRUE(fired.empty());
  EXPECT_TRUE(cancelled.empty());
  EXPECT_DEATH(plan.Arm(FaultKind::kRejectPut, 1), "a sealed fault plan");
  FaultPlan armed = PlanRecording(fired, cancelled);
  armed.Arm(FaultKind::kRejectPut, 1);
  EXPECT_DEATH(armed.Seal(), "cannot be sealed");
}

// Strategy: a cancel_put on subtask 0's second put reaches subtask 0, even
// when subtask 1's waits come in between.
TEST(FaultPlanTest, ACancelledWaitReachesTheSubtaskWhosePutItIs) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  plan.Arm(FaultKind::kCancelPut, 2, 0);
  int64_t ordinal = 0;
  for (int subtask : {0, 1, 0}) {
    plan.OnProduce(ordinal, Put(subtask));
    plan.OnWaitStarted(ordinal);
  }
  EXPECT_EQ(cancelled, std::vector<int>{0});
}

// Strategy: tombstones interleave with state puts. An arm without a
// selector counts state puts only (its nth is the nth state put whatever the
// tombstones); `put: tombstone` counts tombstones only.
TEST(FaultPlanTest, TombstonesAreCountedOnlyByAFaultThatSelectsThem) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  const size_t second_put = plan.Arm(FaultKind::kRejectPut, 2);
  FaultSelector tombstones;
  tombstones.put = PutPoint::kTombstone;
  const size_t second_tombstone = plan.Arm(FaultKind::kLoseAck, 2, std::nullopt, tombstones);
  std::vector<FaultPlan::PutFate> fates;
  int64_t ordinal = 0;
  for (PutPoint put : {PutPoint::kStart, PutPoint::kTombstone, PutPoint::kTombstone, PutPoint::kComplete}) {
    fates.push_back(plan.OnProduce(ordinal, Put(0, put)));
  }
  EXPECT_EQ(fates, (std::vector<FaultPlan::PutFate>{FaultPlan::PutFate::kDeliver, FaultPlan::PutFate::kDeliver,
                                                     FaultPlan::PutFate::kLoseAck, FaultPlan::PutFate::kReject}));
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_EQ(fired[0].armed, second_tombstone);
  EXPECT_EQ(fired[1].armed, second_put);
}

// Strategy: a selector naming put kind, key, sequence number, action and
// call counts only the points matching all of them; a point that differs in
// any one is not counted.
TEST(FaultPlanTest, ASelectorCountsOnlyThePointsMatchingEveryField) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  FaultSelector select;
  select.put = PutPoint::kResult;
  select.key = "b";
  select.seq = 2;
  select.action = "act";
  select.call = 1;
  plan.Arm(FaultKind::kRejectPut, 1, std::nullopt, select);
  int64_t ordinal = 0;
  const std::vector<FaultPoint> misses = {Put(0, PutPoint::kPending, "b", 2, 1), Put(0, PutPoint::kResult, "a", 2, 1),
                                          Put(0, PutPoint::kResult, "b", 1, 1), Put(0, PutPoint::kResult, "b", 2, 0)};
  for (const FaultPoint& miss : misses) EXPECT_EQ(plan.OnProduce(ordinal, miss), FaultPlan::PutFate::kDeliver);
  FaultPoint other_action = Put(0, PutPoint::kResult, "b", 2, 1);
  other_action.state->action_hash = ActionHash("other");
  EXPECT_EQ(plan.OnProduce(ordinal, other_action), FaultPlan::PutFate::kDeliver);
  EXPECT_TRUE(fired.empty());
  EXPECT_EQ(plan.OnProduce(ordinal, Put(0, PutPoint::kResult, "b", 2, 1)), FaultPlan::PutFate::kReject);
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0].nth, 1);
}

// Strategy: a corrupt_record and a crash_after_put_persisted on the same nth
// both fire on that record (each kind counts on its own).
TEST(FaultPlanTest, TwoKindsOnOnePointBothFire) {
  std::vector<Fired> fired;
  std::vector<int> cancelled;
  FaultPlan plan = PlanRecording(fired, cancelled);
  plan.Arm(FaultKind::kCorruptRecord, 1);
  plan.Arm(FaultKind::kCrashAfterPutPersisted, 1);
  plan.OnPersisted(0, 0, Put(0));
  EXPECT_EQ(fired.size(), 2u);
}

}  // namespace
}  // namespace durasim
