// Tests of AgentRuntime's restore: what it tells the invalid-recovery
// checker about the records the harness corrupted (OnRebuild's
// corrupt_in_range), for scenarios written in code and run attempt by attempt.
#include "model/agent_runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "model/attempt.h"
#include "model/observer.h"
#include "model/parts.h"
#include "model/world.h"

namespace durasim {
namespace {

struct Rebuild {
  StatusCode code = StatusCode::kOk;
  bool marker_invalid_expected = false;
  bool corrupt_in_range = false;
};

class RebuildRecorder : public RunObserver {
 public:
  void OnRebuild(const Status& status, bool marker_invalid_expected, bool corrupt_in_range,
                 size_t /*trace_index*/) override {
    rebuilds.push_back(Rebuild{status.code(), marker_invalid_expected, corrupt_in_range});
  }
  std::vector<Rebuild> rebuilds;
};

AttemptStep Step(AttemptStep::Kind kind) {
  AttemptStep step;
  step.kind = kind;
  return step;
}

AttemptStep CheckpointStep(AttemptStep::Kind kind, const std::string& id) {
  AttemptStep step = Step(kind);
  step.checkpoint = id;
  return step;
}

AttemptStep CorruptStep(int32_t partition, int64_t offset) {
  AttemptStep step = Step(AttemptStep::Kind::kCorrupt);
  step.partition = partition;
  step.offset = offset;
  return step;
}

AttemptStep AddPartitions(int64_t count) {
  AttemptStep step = Step(AttemptStep::Kind::kAddPartitions);
  step.count = count;
  return step;
}

AttemptStep ReadAll() {
  AttemptStep step = Step(AttemptStep::Kind::kRead);
  step.count = -1;
  return step;
}

// One input of key "a", one action that saves its output, a topic of one
// partition; attempt 1 runs steps[0], each later attempt i restores cp0 and
// runs steps[i].
Scenario RestoreScenario(const std::vector<std::vector<AttemptStep>>& steps) {
  Scenario scenario;
  scenario.name = "restore";
  scenario.log.partitions = 1;
  scenario.log.linger_ms = 1;
  ActionSpec action;
  action.name = "a0";
  action.on = {kInputEventType};
  action.steps.push_back(ActionStep{ActionStep::Kind::kOutput, "", CallMode::kSync, ArgSource::kAcc, {}});
  scenario.actions.push_back(action);
  scenario.inputs.push_back(InputSpec{"a", 1, {}});
  for (size_t i = 0; i < steps.size(); ++i) {
    AttemptSpec attempt;
    if (i > 0) attempt.restore = "cp0";
    attempt.steps = steps[i];
    scenario.attempts.push_back(attempt);
  }
  return scenario;
}

struct Ran {
  CorruptedPositions corrupted;  // after the last attempt
  std::vector<Rebuild> rebuilds;  // in attempt order
};

// Runs every attempt of `scenario` with the production parts, in order.
Ran RunAttempts(const Scenario& scenario) {
  World world(scenario);
  RebuildRecorder recorder;
  world.AddObserver(&recorder);
  for (size_t i = 0; i < scenario.attempts.size(); ++i) {
    Attempt attempt(world, scenario.attempts[i], static_cast<int>(i + 1), ProductionParts());
    const Attempt::End end = attempt.Run(std::chrono::minutes(1));
    EXPECT_NE(end, Attempt::End::kError) << "attempt " << i + 1 << ": " << attempt.error_message();
  }
  return Ran{world.corrupted(), recorder.rebuilds};
}

// Strategy: seed 12182's false alarm (issue 32). cp0 is taken on a topic of
// one partition (marker {0: 0}) and two partitions are added; attempt 2
// restores cp0 and input "a" writes its states to the added partition 1,
// whose first record is corrupted. Attempt 3 restores cp0 again: the
// rebuild reads partition 1 from offset 0 (KafkaActionStateStore::
// ReadFromMarker) and rejects the record. The harness must count that
// record as in the rebuild's range, or the checker calls the store's right
// answer "rejected valid recovery data".
TEST(AgentRuntimeRestoreTest, ACorruptRecordOnAPartitionAddedAfterTheCheckpointIsInRange) {
  const Scenario scenario = RestoreScenario({{CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp0"),
                                              CheckpointStep(AttemptStep::Kind::kComplete, "cp0"), AddPartitions(2)},
                                             {ReadAll(), Step(AttemptStep::Kind::kRun), CorruptStep(1, 0)},
                                             {}});
  const Ran ran = RunAttempts(scenario);
  ASSERT_EQ(ran.corrupted, (CorruptedPositions{{1, 0}}));
  ASSERT_EQ(ran.rebuilds.size(), 2u);
  EXPECT_EQ(ran.rebuilds[1].code, StatusCode::kInvalidRecovery);
  EXPECT_FALSE(ran.rebuilds[1].marker_invalid_expected);
  EXPECT_TRUE(ran.rebuilds[1].corrupt_in_range);
}

// Strategy: the counterpart on a partition the marker names: input "a"
// finishes, its first record is corrupted, then cp0 is taken past it.
// Restoring cp0 reads partition 0 from the marker's offset only: the
// corrupt record is out of range and the rebuild accepts.
TEST(AgentRuntimeRestoreTest, ACorruptRecordBelowTheMarkerOfItsPartitionIsOutOfRange) {
  const Scenario scenario = RestoreScenario({{ReadAll(), Step(AttemptStep::Kind::kRun), CorruptStep(0, 0),
                                              CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp0"),
                                              CheckpointStep(AttemptStep::Kind::kComplete, "cp0")},
                                             {}});
  const Ran ran = RunAttempts(scenario);
  ASSERT_EQ(ran.corrupted, (CorruptedPositions{{0, 0}}));
  ASSERT_EQ(ran.rebuilds.size(), 1u);
  EXPECT_EQ(ran.rebuilds[0].code, StatusCode::kOk);
  EXPECT_FALSE(ran.rebuilds[0].corrupt_in_range);
}

}  // namespace
}  // namespace durasim
