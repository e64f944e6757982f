// Tests of the fault plan's counting across subtasks.
#include "model/fault_plan.h"

#include <gtest/gtest.h>

#include <vector>

namespace durasim {
namespace {

struct Fired {
  size_t armed;
  int64_t nth;
};

FaultPlan PlanRecording(std::vector<Fired>& fired, std::vector<int>& cancelled) {
  FaultPlan::Hooks hooks;
  hooks.crash = [](const std::string&) {};
  hooks.cancel_wait = [&cancelled](int subtask) { cancelled.push_back(subtask); };
  hooks.corrupt = [](int32_t, int64_t) {};
  hooks.fired = [&fired](size_t armed, FaultKind, int64_t nth, std::optional<PutPoint>) {
    fired.push_back(Fired{armed, nth});
  };
  return FaultPlan(std::move(hooks));
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
  for (int subtask : {0, 1, 1, 0, 1}) fates.push_back(plan.OnProduce(ordinal, subtask));
  EXPECT_EQ(ordinal, 5);
  EXPECT_EQ(fates, (std::vector<FaultPlan::PutFate>{FaultPlan::PutFate::kDeliver, FaultPlan::PutFate::kDeliver,
                                                     FaultPlan::PutFate::kReject, FaultPlan::PutFate::kDeliver,
                                                     FaultPlan::PutFate::kLoseAck}));
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_EQ(fired[0].armed, job_third);
  EXPECT_EQ(fired[1].armed, subtask_third);
  EXPECT_EQ(fired[1].nth, 3);  // subtask 1's third put is the job's fifth
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
    plan.OnProduce(ordinal, subtask);
    plan.OnWaitStarted(ordinal, subtask);
  }
  EXPECT_EQ(cancelled, std::vector<int>{0});
}

}  // namespace
}  // namespace durasim
