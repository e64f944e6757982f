// Aimed points (properties/aimed_points.h): each reshapes a generated
// scenario toward its point, and nothing else than it says.
#include "properties/aimed_points.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "model/fault_catalog.h"
#include "model/store_designs.h"
#include "properties/scenario_generator.h"
#include "store/recovery_marker.h"

namespace durasim {
namespace {

constexpr uint64_t kSeeds = 60;

// A generated scenario (every fault kind and script fault on) with one
// point aimed at, reshaped through `last` (every stage before it too).
Scenario Aimed(uint64_t seed, AimedPoint point, AimStage last, StoreDesign design = StoreDesign::kKafkaRewind) {
  PrngChoices choices(seed);
  Scenario scenario = GenerateScenario(choices, FullSwarm());
  Aims aims(seed * 7919, {point});
  for (AimStage stage : {AimStage::kLog, AimStage::kDesign, AimStage::kMarkers, AimStage::kRuntime}) {
    if (stage == AimStage::kDesign) scenario.store = design;
    aims.Apply(stage, scenario);
    if (stage == last) break;
  }
  return scenario;
}

bool AtACheckpoint(FaultKind kind) { return FaultEntryOf(kind)->target == ArmTarget::kCheckpoint; }

const std::set<FaultKind>& RareKinds() {
  static const std::set<FaultKind> kRare = {FaultKind::kCrashAsyncInFlight,   FaultKind::kCrashBetweenCalls,
                                            FaultKind::kCancelPut,            FaultKind::kCancelCall,
                                            FaultKind::kCrashBeforeCheckpoint, FaultKind::kCrashAfterCheckpoint};
  return kRare;
}

size_t FirstCompletion(const AttemptSpec& attempt) {
  const auto it = std::find_if(attempt.steps.begin(), attempt.steps.end(),
                               [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kComplete; });
  return static_cast<size_t>(it - attempt.steps.begin());
}

// Strategy: each point is drawn for about its AimPercent of the streams
// (legacy markers and the cleanup chain a little less: a draw keeps one of
// the two), and the same stream draws the same points.
TEST(AimedPointsTest, EachPointIsDrawnForSomeStreams) {
  for (AimedPoint point : AllOf<AimedPoint>()) {
    int drawn = 0;
    for (uint64_t stream = 1; stream <= 1000; ++stream) {
      PrngChoices choices(stream);
      const std::vector<AimedPoint> points = DrawAimedPoints(choices);
      if (std::find(points.begin(), points.end(), point) != points.end()) ++drawn;
      PrngChoices again(stream);
      EXPECT_EQ(DrawAimedPoints(again), points);
    }
    const int expected = static_cast<int>(AimPercent(point)) * 10;  // of 1,000 streams
    EXPECT_GT(drawn, expected * 6 / 10) << NameOf(point);
    EXPECT_LT(drawn, expected + 60) << NameOf(point);
  }
}

// Invariant: a seed never aims at version-1 markers and a cleanup under
// compaction together (no store reads both).
TEST(AimedPointsTest, LegacyMarkersAndCleanupAreNeverAimedTogether) {
  for (uint64_t stream = 1; stream <= 2000; ++stream) {
    PrngChoices choices(stream);
    const std::vector<AimedPoint> points = DrawAimedPoints(choices);
    const auto has = [&points](AimedPoint point) { return std::find(points.begin(), points.end(), point) != points.end(); };
    EXPECT_FALSE(has(AimedPoint::kLegacyMarkers) && has(AimedPoint::kCleanupUnderCompaction)) << stream;
  }
}

// On a generated seed's final scenario, every faulty attempt the rare
// faults arm (all but the reconcile aim's crashing attempt and those that
// hold the cleanup chain or the checkpoint mid-run) has a rare arm that no
// point passed before it: a non-checkpoint kind before any read or run, a
// checkpoint kind right before the first checkpoint it counts.
void ExpectRareArmsMeetTheirPoints(const Scenario& scenario, bool reconciled, uint64_t seed) {
  for (size_t a = reconciled ? 1 : 0; a + 1 < scenario.attempts.size(); ++a) {
    const std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    const bool aimed_work = std::any_of(steps.begin(), steps.end(), [](const AttemptStep& s) {
      return s.checkpoint == "cp_mid_run" || s.checkpoint == "cp_cleanup";
    });
    if (aimed_work) continue;
    // A new job's steps before its opening checkpoint completes read nothing.
    const size_t from = scenario.attempts[a].restore ? 0 : FirstCompletion(scenario.attempts[a]) + 1;
    bool met = false;
    int64_t checkpoints = std::count_if(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(from),
                                        [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kCheckpoint; });
    bool working = false;  // a read or a run came
    for (size_t i = from; i < steps.size() && !met; ++i) {
      const AttemptStep& step = steps[i];
      if (step.kind == AttemptStep::Kind::kArm && RareKinds().contains(step.fault)) {
        met = AtACheckpoint(step.fault) ? i + 1 < steps.size() && steps[i + 1].kind == AttemptStep::Kind::kCheckpoint &&
                                              step.nth == checkpoints + 1
                                        : !working;
      }
      checkpoints += step.kind == AttemptStep::Kind::kCheckpoint;
      working = working || step.kind == AttemptStep::Kind::kRead || step.kind == AttemptStep::Kind::kRun ||
                step.kind == AttemptStep::Kind::kRunFor;
    }
    EXPECT_TRUE(met) << "seed " << seed << ": attempt " << a + 1 << " has no rare arm that can meet its point";
  }
}

// Invariant: on the final scenario of a generated seed, each point it aims
// at holds what it reshaped: `legacy_markers` no tombstones, `one_key_get`
// the real get() with one key, `reconcile_in_flight` a store, every
// supplier reconciled and a crashing first attempt of its own (the opening
// checkpoint, the arm, a read and a run: what other draws put after the
// opening checkpoint went to the replaying attempt), `rewrite_faults`
// kafka-rewrite (the mix may draw it) with the checkpoint mid-run in the
// first attempt that runs on; and no re-created topic or crash at a
// checkpoint comes before a job's opening checkpoint completes.
TEST(AimedPointsTest, GeneratedSeedsKeepWhatTheirPointsReshaped) {
  int aimed = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    const Generated generated = GenerateFromSeed(seed);
    const Scenario& scenario = generated.scenario;
    const std::vector<AimedPoint>& points = generated.swarm.aimed_points;
    const auto has = [&points](AimedPoint point) { return std::find(points.begin(), points.end(), point) != points.end(); };
    aimed += !points.empty();
    if (has(AimedPoint::kLegacyMarkers)) {
      EXPECT_FALSE(scenario.TombstonesEver()) << seed;
    }
    if (has(AimedPoint::kOneKeyGet)) {
      EXPECT_EQ(scenario.store_options.get, GetEviction::kOnDivergence) << seed;
      for (const InputSpec& input : scenario.inputs) EXPECT_EQ(input.key, scenario.inputs.front().key) << seed;
    }
    const bool reconciled = has(AimedPoint::kReconcileInFlight);
    if (reconciled) {
      EXPECT_TRUE(scenario.durable.execution) << seed;
      for (const SupplierSpec& supplier : scenario.suppliers) EXPECT_FALSE(supplier.reconcile.empty()) << seed;
      const std::vector<AttemptStep>& crashing = scenario.attempts.front().steps;
      ASSERT_EQ(crashing.size(), 5u) << seed;
      EXPECT_EQ(crashing[2].kind, AttemptStep::Kind::kArm) << seed;
      EXPECT_EQ(scenario.attempts[1].restore, std::optional<std::string>(kRestoreLatest)) << seed;
    }
    if (has(AimedPoint::kRewriteFaults)) {
      EXPECT_EQ(scenario.store, StoreDesign::kKafkaRewrite) << seed;
      const std::vector<AttemptStep>& first = scenario.attempts[reconciled ? 1 : 0].steps;
      EXPECT_TRUE(std::any_of(first.begin(), first.end(), [](const AttemptStep& s) { return s.checkpoint == "cp_mid_run"; }))
          << seed;
    }
    if (has(AimedPoint::kRareFaults)) ExpectRareArmsMeetTheirPoints(scenario, reconciled, seed);
    for (const AttemptSpec& attempt : scenario.attempts) {
      if (attempt.restore) continue;
      // What would fail a job's opening checkpoint or make it stale: a
      // re-created topic, a crash at a checkpoint.
      for (size_t i = 0; i < FirstCompletion(attempt) && i < attempt.steps.size(); ++i) {
        const AttemptStep& step = attempt.steps[i];
        const bool at_checkpoint = step.kind == AttemptStep::Kind::kArm &&
                                   (step.fault == FaultKind::kCrashBeforeCheckpoint ||
                                    step.fault == FaultKind::kCrashAfterCheckpoint);
        EXPECT_FALSE(step.kind == AttemptStep::Kind::kRecreateTopic || at_checkpoint)
            << "seed " << seed << ": step " << i << " before a job's opening checkpoint completes";
      }
    }
  }
  EXPECT_GT(aimed, 200);
}

// Invariant: a crash with a call in flight comes first: a fresh attempt
// that completes the opening checkpoint, arms a crash at a PENDING slot or a
// call, reads and runs; the attempt that was first restores that checkpoint
// and reads first. Every supplier's reconciler says done, not done and
// unknown, in some order.
TEST(AimedPointsTest, ReconcileInFlightCrashesFirstAndScriptsEveryAnswer) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    const Scenario before = GenerateScenario(choices, FullSwarm());
    const Scenario after = Aimed(seed, AimedPoint::kReconcileInFlight, AimStage::kRuntime);
    ASSERT_EQ(after.attempts.size(), before.attempts.size() + 1);
    const AttemptSpec& crashing = after.attempts[0];
    EXPECT_FALSE(crashing.restore.has_value());
    ASSERT_EQ(crashing.steps.size(), 5u);
    EXPECT_EQ(crashing.steps[0].checkpoint, "cp0");
    EXPECT_EQ(crashing.steps[1].kind, AttemptStep::Kind::kComplete);
    EXPECT_EQ(crashing.steps[2].kind, AttemptStep::Kind::kArm);
    const std::set<FaultKind> in_flight = {FaultKind::kCrashAfterPutPersisted, FaultKind::kCrashAsyncInFlight,
                                           FaultKind::kCrashBetweenCalls};
    EXPECT_TRUE(in_flight.contains(crashing.steps[2].fault));
    const AttemptSpec& replaying = after.attempts[1];
    EXPECT_EQ(replaying.restore, std::optional<std::string>(kRestoreLatest));
    EXPECT_EQ(replaying.steps.front().kind, AttemptStep::Kind::kRead);
    EXPECT_EQ(replaying.steps.front().count, crashing.steps[3].count);
    EXPECT_TRUE(std::none_of(replaying.steps.begin(), replaying.steps.end(),
                             [](const AttemptStep& s) { return s.checkpoint == "cp0"; }));
    for (const SupplierSpec& supplier : after.suppliers) {
      const std::set<ReconcileAnswer> answers(supplier.reconcile.begin(), supplier.reconcile.end());
      EXPECT_EQ(answers, (std::set<ReconcileAnswer>{ReconcileAnswer::kDone, ReconcileAnswer::kNotDone,
                                                    ReconcileAnswer::kUnknown}));
    }
    // An action's error handling is one in every plan.
    for (const AttemptSpec& attempt : after.attempts) {
      if (!attempt.plan) continue;
      for (const ActionSpec& planned : attempt.plan->actions) {
        for (const ActionSpec& action : after.actions) {
          if (action.name == planned.name) {
            EXPECT_EQ(action.on_error.kind, planned.on_error.kind);
          }
        }
      }
    }
  }
}

// Invariant: most actions that fail the job over on a failure catch it
// once a reconciler may answer `unknown` (which fails the call).
TEST(AimedPointsTest, ReconcileInFlightCatchesMostFailures) {
  int failing_before = 0;
  int failing_after = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    const Scenario before = GenerateScenario(choices, FullSwarm());
    const Scenario after = Aimed(seed, AimedPoint::kReconcileInFlight, AimStage::kRuntime);
    for (const ActionSpec& action : before.actions) failing_before += action.on_error.kind == OnError::kFail;
    for (const ActionSpec& action : after.actions) failing_after += action.on_error.kind == OnError::kFail;
  }
  EXPECT_GT(failing_before, 20);
  EXPECT_LT(failing_after * 2, failing_before);
}

// Invariant: every input has one key, every plan one action on the input
// that emits nothing, and the real get() is on.
TEST(AimedPointsTest, OneKeyGetLeavesOneStatePerInput) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Scenario after = Aimed(seed, AimedPoint::kOneKeyGet, AimStage::kRuntime);
    ASSERT_GE(after.inputs.size(), 2u);
    for (const InputSpec& input : after.inputs) EXPECT_EQ(input.key, after.inputs.front().key);
    std::vector<const std::vector<ActionSpec>*> plans = {&after.actions};
    for (const AttemptSpec& attempt : after.attempts) {
      if (attempt.plan) plans.push_back(&attempt.plan->actions);
    }
    for (const std::vector<ActionSpec>* actions : plans) {
      ASSERT_EQ(actions->size(), 1u);
      EXPECT_EQ(actions->front().on, std::vector<std::string>{kInputEventType});
      EXPECT_TRUE(std::none_of(actions->front().steps.begin(), actions->front().steps.end(),
                               [](const ActionStep& s) { return s.kind == ActionStep::Kind::kEmit; }));
    }
    EXPECT_EQ(after.store_options.get, GetEviction::kOnDivergence);
  }
}

// Invariant: no tombstones anywhere, and where restores get markers, a
// version-1 marker is among them, none after a re-created topic.
TEST(AimedPointsTest, LegacyMarkersTurnTombstonesOff) {
  int legacy = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Scenario after = Aimed(seed, AimedPoint::kLegacyMarkers, AimStage::kMarkers);
    EXPECT_FALSE(after.TombstonesEver());
    bool recreated = false;
    for (const AttemptSpec& attempt : after.attempts) {
      if (attempt.markers) {
        EXPECT_FALSE(recreated);
        EXPECT_EQ(attempt.markers->back().version, RecoveryMarker::kLegacyVersion);
        ++legacy;
      }
      for (const AttemptStep& step : attempt.steps) {
        recreated = recreated || step.kind == AttemptStep::Kind::kRecreateTopic;
        EXPECT_FALSE(step.select.put == PutPoint::kTombstone || step.select.put == PutPoint::kCleanup);
      }
    }
  }
  EXPECT_GT(legacy, 20);
}

// Invariant: tombstones on, with a delete horizon compaction can pass.
TEST(AimedPointsTest, CleanupUnderCompactionEnablesTombstoneRemoval) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Scenario after = Aimed(seed, AimedPoint::kCleanupUnderCompaction, AimStage::kLog);
    EXPECT_TRUE(after.log.tombstones);
    EXPECT_GE(after.log.delete_retention_ms, 1);
  }
}

// Invariant: partitions are added right after the last completion of a
// faulty attempt whose next attempt restores the latest checkpoint, and
// the store of most such seeds reads them: a rejecting option drawn before
// is undone for most, kept for some.
TEST(AimedPointsTest, AddedPartitionsComeAfterACompletedCheckpointAndMostAreRead) {
  int added = 0;
  int read = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    Scenario after = GenerateScenario(choices, FullSwarm());
    after.store_options.added_partitions = AddedPartitions::kReject;  // as DrawStoreOptions may draw
    Aims aims(seed * 7919, {AimedPoint::kAddedPartitionsRestored});
    for (AimStage stage : {AimStage::kLog, AimStage::kDesign, AimStage::kMarkers, AimStage::kRuntime}) {
      aims.Apply(stage, after);
    }
    read += after.store_options.added_partitions == AddedPartitions::kReadFromStart;
    for (size_t a = 0; a + 1 < after.attempts.size(); ++a) {
      const std::vector<AttemptStep>& steps = after.attempts[a].steps;
      for (size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].kind != AttemptStep::Kind::kAddPartitions) continue;
        if (i == 0 || steps[i - 1].kind != AttemptStep::Kind::kComplete) continue;  // the generator's own
        ++added;
        EXPECT_EQ(after.attempts[a + 1].restore, std::optional<std::string>(kRestoreLatest));
      }
    }
  }
  EXPECT_GT(added, kSeeds / 2);
  EXPECT_GT(read, static_cast<int>(kSeeds) / 2);
  EXPECT_LT(read, static_cast<int>(kSeeds));  // some keep the rejecting option
}

// Invariant: one re-created topic, in a faulty attempt, never before the
// job's opening checkpoint completes.
TEST(AimedPointsTest, RecreateTopicOnceInAFaultyAttempt) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Scenario after = Aimed(seed, AimedPoint::kRecreateTopic, AimStage::kLog);
    int recreated = 0;
    for (size_t a = 0; a < after.attempts.size(); ++a) {
      const std::vector<AttemptStep>& steps = after.attempts[a].steps;
      for (size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].kind != AttemptStep::Kind::kRecreateTopic) continue;
        ++recreated;
        EXPECT_LT(a + 1, after.attempts.size());
        if (a == 0) {
          EXPECT_GT(i, FirstCompletion(after.attempts[0]));
        }
      }
    }
    EXPECT_EQ(recreated, 1) << "seed " << seed;
  }
}

// Invariant: every faulty attempt arms one of the rare kinds, none before
// the first attempt's opening checkpoint completes.
TEST(AimedPointsTest, RareFaultsArmEveryFaultyAttempt) {
  const std::set<FaultKind>& rare = RareKinds();
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    const Scenario before = GenerateScenario(choices, FullSwarm());
    const Scenario after = Aimed(seed, AimedPoint::kRareFaults, AimStage::kMarkers);
    for (size_t a = 0; a + 1 < after.attempts.size(); ++a) {
      const auto arms = [&rare](const AttemptSpec& attempt) {
        return std::count_if(attempt.steps.begin(), attempt.steps.end(), [&rare](const AttemptStep& s) {
          return s.kind == AttemptStep::Kind::kArm && rare.contains(s.fault);
        });
      };
      EXPECT_EQ(arms(after.attempts[a]), arms(before.attempts[a]) + 1);
    }
    const auto rare_before_opening = [&rare](const AttemptSpec& attempt) {
      return std::count_if(attempt.steps.begin(), attempt.steps.begin() + static_cast<std::ptrdiff_t>(FirstCompletion(attempt)),
                           [&rare](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kArm && rare.contains(s.fault); });
    };
    EXPECT_EQ(rare_before_opening(after.attempts[0]), rare_before_opening(before.attempts[0]));
  }
}

// Invariant: a fault's points are counted from its attempt's start, so a
// rare arm at a checkpoint's edges sits just before a checkpoint and counts
// it (nth = the checkpoints before it + 1; past the first, a barrier arm
// counts subtask 0's); any other rare arm comes first in its attempt
// (after a new job's opening checkpoint), with nth 1 or 2.
TEST(AimedPointsTest, RareFaultsCountOnPointsAfterTheirArm) {
  int at_checkpoints = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    Scenario after = GenerateScenario(choices, FullSwarm());
    for (AttemptSpec& attempt : after.attempts) {  // the rare arms are then the only ones
      std::erase_if(attempt.steps, [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kArm; });
    }
    Aims aims(seed * 7919, {AimedPoint::kRareFaults});
    for (AimStage stage : {AimStage::kLog, AimStage::kDesign, AimStage::kMarkers}) aims.Apply(stage, after);
    for (size_t a = 0; a + 1 < after.attempts.size(); ++a) {
      const std::vector<AttemptStep>& steps = after.attempts[a].steps;
      const auto arm = std::find_if(steps.begin(), steps.end(), [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kArm; });
      ASSERT_NE(arm, steps.end()) << seed;
      const size_t i = static_cast<size_t>(arm - steps.begin());
      if (AtACheckpoint(arm->fault)) {
        ++at_checkpoints;
        ASSERT_LT(i + 1, steps.size()) << seed;
        EXPECT_EQ(steps[i + 1].kind, AttemptStep::Kind::kCheckpoint) << seed;
        const int64_t before_it = std::count_if(steps.begin(), arm,
                                                [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kCheckpoint; });
        EXPECT_EQ(arm->nth, before_it + 1) << seed;
        if (arm->fault == FaultKind::kCrashBeforeCheckpoint && before_it > 0) {
          EXPECT_EQ(arm->subtask, std::optional<int32_t>(0)) << seed;
        }
      } else {
        EXPECT_EQ(i, after.attempts[a].restore ? 0u : FirstCompletion(after.attempts[a]) + 1) << seed;
        EXPECT_LE(arm->nth, 2) << seed;
      }
    }
  }
  EXPECT_GT(at_checkpoints, 10);
}

// Invariant: a rare kind is armed only where the actions can meet it: an
// async call in flight where some action makes an async call, a crash
// between calls where one makes two.
TEST(AimedPointsTest, RareFaultsFitTheActions) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    PrngChoices choices(seed);
    Scenario before = GenerateScenario(choices, FullSwarm());
    for (ActionSpec& action : before.actions) {  // every call sync, one call an action at most
      bool first = true;
      std::erase_if(action.steps, [&first](const ActionStep& step) {
        if (step.kind != ActionStep::Kind::kCall) return false;
        const bool drop = !first;
        first = false;
        return drop;
      });
      for (ActionStep& step : action.steps) step.mode = CallMode::kSync;
    }
    for (AttemptSpec& attempt : before.attempts) attempt.plan.reset();
    Scenario after = before;
    Aims aims(seed * 7919, {AimedPoint::kRareFaults});
    for (AimStage stage : {AimStage::kLog, AimStage::kDesign, AimStage::kMarkers}) aims.Apply(stage, after);
    for (size_t a = 0; a < after.attempts.size(); ++a) {
      for (size_t i = 0; i < after.attempts[a].steps.size(); ++i) {
        const AttemptStep& step = after.attempts[a].steps[i];
        if (step.kind != AttemptStep::Kind::kArm) continue;
        const bool old = std::count_if(before.attempts[a].steps.begin(), before.attempts[a].steps.end(),
                                       [&step](const AttemptStep& s) { return s.kind == step.kind && s.fault == step.fault; }) > 0;
        if (old) continue;
        EXPECT_NE(step.fault, FaultKind::kCrashAsyncInFlight) << seed;
        EXPECT_NE(step.fault, FaultKind::kCrashBetweenCalls) << seed;
      }
    }
  }
}

// Invariant: every design gets the checkpoint taken mid-run after the
// opening one; only kafka-rewrite gets a fault at its rewrites.
TEST(AimedPointsTest, RewriteFaultsOnlyOnKafkaRewrite) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    for (StoreDesign design : AllOf<StoreDesign>()) {
      const Scenario after = Aimed(seed, AimedPoint::kRewriteFaults, AimStage::kDesign, design);
      const std::vector<AttemptStep>& first = after.attempts[0].steps;
      const auto mid_run = std::find_if(first.begin(), first.end(), [](const AttemptStep& s) {
        return s.kind == AttemptStep::Kind::kCheckpoint && s.checkpoint == "cp_mid_run";
      });
      ASSERT_NE(mid_run, first.end());
      const bool armed = mid_run != first.begin() && (mid_run - 1)->select.put == PutPoint::kRewrite;
      EXPECT_EQ(armed, design == StoreDesign::kKafkaRewrite) << NameOf(design);
    }
  }
}

// Invariant: a generated seed that aims at points says so in its swarm
// line, and only boosted seeds (forced gates) aim.
TEST(AimedPointsTest, OnlyBoostedSeedsAimAndSaySo) {
  int aimed = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Generated generated = GenerateFromSeed(seed);
    if (generated.swarm.aimed_points.empty()) continue;
    ++aimed;
    EXPECT_FALSE(generated.swarm.forced_gates.empty());
    EXPECT_NE(generated.swarm.Describe().find(" aimed_points=["), std::string::npos);
  }
  EXPECT_GT(aimed, 50);
}

}  // namespace
}  // namespace durasim
