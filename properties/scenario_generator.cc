// Scenario generator implementation.
#include "properties/scenario_generator.h"

#include "model/store_designs.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/fault_catalog.h"
#include "model/key_shapes.h"
#include "model/scenario_limits.h"
#include "model/typed_key.h"
#include "properties/step_builders.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// Input keys worth having: separators, digits only, long, non-ASCII, empty-ish.
const std::vector<std::string>& KeyPool() {
  static const std::vector<std::string> kKeys = {
      "a", "b", "user_1", "a_b_c", "_", "42", "007", "ü", "日本_語", "with space", "x_1_0000000000000001_2",
      std::string(64, 'k'), "c",
  };
  return kKeys;
}

// Mixed into a seed for its pair stream (DrawForcedGates): "pair-ga" plus
// 557,504, the first value for which none of the seeds the tests pin or
// quote (1, 2, 4, 7, 10, 11, 12, 33, 42, 43, 68, 80, 118, 136, 188, 766,
// 1000, 2047: sim/run/seed_snapshot_test.cc) is a forced-gate seed at
// kForcedGatesPercent, so those keep their scenarios.
constexpr uint64_t kPairStream = 0x706169722d6fe2c0;

// Mixed into a seed for its key-shape stream (DrawKeyShape).
constexpr uint64_t kKeyShapeStream = 0x6b65792d73686170;  // "key-shap"

// Mixed into a seed for its reconciler stream (DrawReconcilers).
// "reconc" plus 373, the first value from which none of the seeds the tests
// pin or quote (sim/run/seed_snapshot_test.cc) nor the new first kills draws
// reconcilers.
constexpr uint64_t kReconcileStream = 0x7265636f6e630175;

// Mixed into a seed for its hand-made marker stream (DrawHandMadeMarkers):
// "marker" plus 187, the first value from which none of the seeds the tests
// pin or quote draws hand-made markers.
constexpr uint64_t kMarkersStream = 0x6d61726b657200bb;

// Mixed into a seed for its runtime-mode stream (DrawRuntimeModes): "modes"
// plus 1319, the first value from which none of the seeds the tests pin or
// quote draws a mode.
constexpr uint64_t kModesStream = 0x006d6f6465730527;

// Mixed into a seed for its store-option stream (DrawStoreOptions):
// "addpart" plus 21, the first value from which none of the seeds quoted for
// partitions added (9; marker-ignores-new-partitions' first kills 72, 366,
// 193, 634, 69) draws an option.
constexpr uint64_t kStoreOptionsStream = 0x6164647061727415;

// Mixed into a seed for its get-eviction stream (DrawGetEviction).
constexpr uint64_t kGetEvictionStream = 0x6765742d65766963;  // "get-evic"

// Mixed into a seed for its tombstone-migration stream
// (DrawTombstoneMigration): "migrate" plus 4, the first value from which
// none of the seeds the tests pin draws a migration.
constexpr uint64_t kMigrationStream = 0x6d69677261746504;

// Mixed into a seed for its typed-key stream (DrawTypedKeys): "typedkey"
// plus 7, the first value from which none of the seeds the tests pin draws
// typed keys.
constexpr uint64_t kTypedKeyStream = 0x747970656b657907;

// Mixed into a seed for its rebuild-step stream (DrawStepsDuringRebuild):
// "rebui", "d" plus 23, the first value from which none of the seeds the
// tests pin draws a step during a rebuild.
constexpr uint64_t kRebuildStepStream = 0x7265627569006417;

// Mixed into a seed for its aim stream (DrawAimedPoints; each point's own
// stream mixes the point in, Aims). Only boosted seeds draw from it, and no
// pinned seed is boosted (kPairStream); seeds quoted since may be.
constexpr uint64_t kAimStream = 0x61696d2d706f696e;  // "aim-poin"

// Mixed into a seed for its cleanup stream (DrawCleanupUnderCompaction).
constexpr uint64_t kCleanupStream = 0x636c65616e2d7570;  // "clean-up"

// The seeds of the forced-gate class (DrawForcedGates) are boosted: the
// independent streams drawn after the gates (reconcilers, runtime modes,
// store options, hand-made markers, key shapes, typed keys, steps during a
// rebuild, tombstone migration) open for these many of them, not for the
// 10-40% of an ordinary seed, so that what they draw meets the gates' rare
// features (issue 32). An ordinary seed's draws are unchanged.
constexpr uint64_t kBoostedPercent = 90;       // reconcilers, modes, store options, key shapes
constexpr uint64_t kBoostedRarePercent = 70;   // markers, typed keys, rebuild steps, migration
constexpr uint64_t kBoostedReconcilerPercent = 80;  // each supplier gets one
constexpr uint64_t kBoostedTruthPercent = 20;       // it answers the truth, else scripted answers
// Of a boosted seed's runtime modes, runs without a store: the aimed points
// that need one turn it back on in most boosted seeds (aimed_points.cc).
constexpr uint64_t kBoostedNoStorePercent = 30;
// Of a boosted seed's runtime modes, runs with the sync fallback: the aimed
// async faults give half of them an executor back.
constexpr uint64_t kBoostedSyncFallbackPercent = 30;
constexpr int64_t kBoostedFaultyAttemptsMax = 4;
constexpr uint64_t kBoostedFaultPercentMin = 60;

// DrawForcedGates: the seeds whose gates are forced (and draws boosted), and
// how often each gate past the first two is forced too.
constexpr uint64_t kForcedGatesPercent = 50;
constexpr uint64_t kExtraGatePercent = 70;

// The gate range of DrawChangingCalls.
constexpr uint64_t kChangingCallsGateLow = 0;
constexpr uint64_t kChangingCallsGateHigh = 20;

bool Has(const std::vector<ScriptFault>& faults, ScriptFault fault) {
  return std::find(faults.begin(), faults.end(), fault) != faults.end();
}

// Small numbers are the interesting ones: most draws are small, a few large.
int64_t SmallBiased(Choices& choices, int64_t max) {
  DURASIM_CHECK_GE(max, 1);
  switch (choices.Weighted({6, 3, 1})) {
    case 0: return choices.Range(1, std::min<int64_t>(max, 3));
    case 1: return choices.Range(1, std::min<int64_t>(max, 10));
    default: return choices.Range(1, max);
  }
}

std::vector<SupplierSpec> GenerateSuppliers(Choices& choices) {
  std::vector<SupplierSpec> suppliers;
  const int64_t count = choices.Range(1, 3);
  for (int64_t i = 0; i < count; ++i) {
    SupplierSpec supplier;
    supplier.name = fmt::format("s{}", i);
    if (choices.Percent(50)) supplier.scale = choices.Range(-3, 10);
    supplier.latency_ms = choices.Weighted({2, 5, 2, 1}) == 0 ? 0 : SmallBiased(choices, 30);
    suppliers.push_back(std::move(supplier));
  }
  return suppliers;
}

std::vector<ActionSpec> GenerateActions(Choices& choices, const Swarm& swarm, size_t suppliers) {
  DURASIM_CHECK_GT(suppliers, 0u);  // every call step names one of them
  const int64_t count = choices.Range(1, swarm.actions_max);
  std::vector<bool> emits(static_cast<size_t>(count));
  for (auto&& e : emits) e = choices.Percent(40);
  std::vector<ActionSpec> actions(static_cast<size_t>(count));
  for (size_t i = 0; i < actions.size(); ++i) {
    ActionSpec& action = actions[i];
    action.name = fmt::format("a{}", i);
    // Triggers only by earlier actions' events: the emit graph is acyclic.
    std::vector<size_t> emitters;
    for (size_t j = 0; j < i; ++j) {
      if (emits[j]) emitters.push_back(j);
    }
    if (i == 0 || emitters.empty() || choices.Percent(40)) {
      action.on.push_back(kInputEventType);
    } else {
      action.on.push_back(fmt::format("ev{}", emitters[choices.Below(emitters.size())]));
    }
    const int64_t calls = choices.Weighted({2, 4, 2, 1, 1});
    for (int64_t c = 0; c < calls; ++c) {
      ActionStep call;
      call.kind = ActionStep::Kind::kCall;
      call.name = fmt::format("s{}", choices.Below(suppliers));
      call.mode = choices.Percent(35) ? CallMode::kAsync : CallMode::kSync;
      action.steps.push_back(call);
      if (choices.Percent(20)) {
        ActionStep memory;
        memory.kind = ActionStep::Kind::kMemory;
        memory.name = fmt::format("m{}", c);
        action.steps.push_back(memory);
      }
    }
    if (emits[i]) {
      ActionStep emit;
      emit.kind = ActionStep::Kind::kEmit;
      emit.name = fmt::format("ev{}", i);
      action.steps.push_back(emit);
      if (choices.Percent(20)) action.steps.push_back(emit);  // identical siblings
    }
    if (action.steps.empty() || choices.Percent(80)) {
      ActionStep output;
      output.kind = ActionStep::Kind::kOutput;
      action.steps.push_back(output);
    }
  }
  return actions;
}

std::vector<InputSpec> GenerateInputs(Choices& choices, const Swarm& swarm) {
  std::vector<std::string> keys;
  const int64_t key_count = choices.Range(1, swarm.keys_max);
  for (int64_t i = 0; i < key_count; ++i) keys.push_back(KeyPool()[choices.Below(KeyPool().size())]);
  DURASIM_CHECK(!keys.empty());  // every input draws its key from these
  std::vector<InputSpec> inputs;
  const int64_t count = SmallBiased(choices, swarm.inputs_max);
  for (int64_t i = 0; i < count; ++i) {
    InputSpec input;
    input.key = keys[choices.Below(keys.size())];
    input.value = choices.Range(0, 99);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// A plausible nth for an armed fault: few checkpoints, async calls and
// durable calls happen in an attempt, many puts do.
int64_t DrawNth(Choices& choices, FaultKind kind) {
  switch (kind) {
    case FaultKind::kCrashBeforeCheckpoint:
    case FaultKind::kCrashAfterCheckpoint:
    case FaultKind::kCrashAsyncInFlight:
    case FaultKind::kCancelCall: return choices.Range(1, 3);
    case FaultKind::kCrashAfterPutPersisted:
    case FaultKind::kCrashAfterPutAcked:
    case FaultKind::kCrashBetweenCalls:
    case FaultKind::kRejectPut:
    case FaultKind::kLoseAck:
    case FaultKind::kCancelPut:
    case FaultKind::kCorruptRecord: return SmallBiased(choices, 24);
  }
  return 1;
}

// Arms one fault drawn from the swarm's kinds, with a plausible nth.
AttemptStep ArmStep(Choices& choices, const Swarm& swarm) {
  DURASIM_CHECK(!swarm.armed_kinds.empty());
  AttemptStep arm = Step(AttemptStep::Kind::kArm);
  arm.fault = swarm.armed_kinds[choices.Below(swarm.armed_kinds.size())];
  arm.nth = DrawNth(choices, arm.fault);
  DURASIM_CHECK_GE(arm.nth, 1);  // a fault's nth counts from 1
  return arm;
}

// Whether a fault kind came after the generator's choice stream was fixed.
// Those, like every later addition, are drawn after everything else (see
// DrawLateAdditions), so that a seed keeps naming the same scenario: replay
// commands in docs and bug reports stay valid, and a seed whose late draws
// add nothing is unchanged. A new kind is late: its catalog entry says
// GeneratorDraw::kLateArm (model/fault_catalog.h).
bool IsLate(FaultKind kind) { return FaultEntryOf(kind)->draw == GeneratorDraw::kLateArm; }

// The late additions: which late fault kinds are on, put retries,
// tombstones, and an arm of a late kind at a drawn place in each faulty
// attempt that the seed's fault rate picks.
void DrawLateAdditions(Choices& choices, const Swarm& swarm, Scenario& scenario) {
  std::vector<FaultKind> late;
  for (FaultKind kind : AllOf<FaultKind>()) {
    if (IsLate(kind) && choices.Percent(50)) late.push_back(kind);
  }
  scenario.log.put_retries_max = choices.Percent(30) ? choices.Range(1, 2) : 0;
  // Tombstones break restores of checkpoints older than the prune (a known
  // limit of the real store): never both.
  scenario.log.tombstones = !Has(swarm.script_faults, ScriptFault::kRestoreOlder) && choices.Percent(30);
  if (late.empty()) return;
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {  // never the healed last attempt
    if (!choices.Percent(swarm.fault_percent)) continue;
    AttemptStep arm = Step(AttemptStep::Kind::kArm);
    arm.fault = late[choices.Below(late.size())];
    arm.nth = DrawNth(choices, arm.fault);
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(choices.Below(steps.size() + 1)), arm);
  }
}

// A recall and a memory_add at drawn places of some actions, on the slots
// memory steps write most.
void DrawMemoryReads(Choices& choices, Scenario& scenario) {
  for (ActionSpec& action : scenario.actions) {
    for (ActionStep::Kind kind : {ActionStep::Kind::kRecall, ActionStep::Kind::kMemoryAdd}) {
      if (!choices.Percent(60)) continue;
      ActionStep step;
      step.kind = kind;
      step.name = fmt::format("m{}", choices.Below(2));
      action.steps.insert(action.steps.begin() + static_cast<std::ptrdiff_t>(choices.Below(action.steps.size() + 1)),
                          step);
    }
  }
}

// A recall reads a slot some memory or memory_add step writes (a recall of
// a slot nothing writes is a parse error: it reads 0 always, a typo). The
// drawn slot of one that nothing writes becomes the first written slot, or
// the recall goes when none is written. No draw: the other seeds keep their
// scenarios.
void RecallOnlyWrittenSlots(Scenario& scenario) {
  DURASIM_CHECK(std::none_of(scenario.attempts.begin(), scenario.attempts.end(),
                             [](const AttemptSpec& attempt) { return attempt.plan.has_value(); }));  // drawn later
  const std::set<std::string> written = scenario.MemorySlotsWritten();
  for (ActionSpec& action : scenario.actions) {
    for (ActionStep& step : action.steps) {
      if (step.kind == ActionStep::Kind::kRecall && !written.contains(step.name) && !written.empty()) {
        step.name = *written.begin();
      }
    }
    std::erase_if(action.steps, [&](const ActionStep& step) {
      return step.kind == ActionStep::Kind::kRecall && !written.contains(step.name);
    });
  }
}

// Suppliers that fail some calls (more where the world gate is forced, a
// boosted seed's: its failures meet its other points), and each action's
// error handling.
void DrawFailingCalls(Choices& choices, Scenario& scenario, bool gate_forced) {
  for (SupplierSpec& supplier : scenario.suppliers) {
    if (choices.Percent(gate_forced ? 90 : 70)) supplier.fail_percent = choices.Range(10, 50);
  }
  for (ActionSpec& action : scenario.actions) {
    // Failing over is rare: a saved failure fails every later attempt too,
    // and a run that never finishes gets no end-of-run checks.
    switch (choices.Weighted({1, 2, 3})) {
      case 0: action.on_error = ErrorHandling{OnError::kFail, 0}; break;
      case 1: action.on_error = ErrorHandling{OnError::kIgnore, 0}; break;
      default: action.on_error = ErrorHandling{OnError::kRetry, choices.Range(1, 3)}; break;
    }
  }
}

// Memory reads and failing suppliers with each error handling, drawn after
// every other draw (the late-draw rule above). One gate draw decides: a seed
// whose gate falls outside both ranges names the same scenario as before
// they existed. The ranges (16% memory, 14% failures, each with a 30%
// chance of the other too) leave out the gate draws of the seeds the docs
// and the kill matrix quote (sim/run/seed_snapshot_test.cc), so those keep
// their meaning. Failures come from `fail_percent` only, a digest of the
// call's identity, so the run without faults fails the same calls; a
// supplier's `nth` failure would move with every legitimate repeat of an
// unsaved call.
void DrawWorldAdditions(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  bool memory = gate >= 32 && gate <= 47;
  bool failures = gate >= 51 && gate <= 64;
  if (forced && !memory && !failures) memory = failures = true;
  if (!memory && !failures) return;
  if (choices.Percent(30)) memory = failures = true;
  if (memory) {
    DrawMemoryReads(choices, scenario);
    RecallOnlyWrittenSlots(scenario);
  }
  if (failures) DrawFailingCalls(choices, scenario, forced);
}

// A supplier whose answer is its argument times a scale and never fails: a
// call to it commutes with another such call, and one to a scale-1 supplier
// leaves the value as it is, wherever the call stands.
bool IsPlainScale(const std::vector<SupplierSpec>& suppliers, const std::string& name) {
  for (const SupplierSpec& supplier : suppliers) {
    if (supplier.name == name) return supplier.scale.has_value() && supplier.fail_percent == 0 && !supplier.drifting;
  }
  return false;
}

constexpr const char* kEchoSupplier = "echo";

// One edit of a plan that keeps its answer, so the run without faults
// answers the same under both plans (sim/run/runner.cc checks it): an argument
// gains or loses its attempt part; two neighbouring calls of plain-scale
// suppliers swap; a plain-scale supplier is renamed for one action; a call
// to a scale-1 supplier is added after an action's last call, or removed.
void EditPlan(Choices& choices, PlanSpec& plan, int version) {
  DURASIM_CHECK(!plan.actions.empty());
  ActionSpec& action = plan.actions[choices.Below(plan.actions.size())];
  std::vector<size_t> calls;
  for (size_t i = 0; i < action.steps.size(); ++i) {
    if (action.steps[i].kind == ActionStep::Kind::kCall) calls.push_back(i);
  }
  switch (choices.Weighted({3, 3, 2, 2})) {
    case 0:
      if (!calls.empty()) {
        ActionStep& call = action.steps[calls[choices.Below(calls.size())]];
        call.arg = call.arg == ArgSource::kAcc ? ArgSource::kAttempt : ArgSource::kAcc;
      }
      return;
    case 1:
      for (size_t i = 0; i + 1 < action.steps.size(); ++i) {
        const ActionStep& a = action.steps[i];
        const ActionStep& b = action.steps[i + 1];
        if (a.kind == ActionStep::Kind::kCall && b.kind == ActionStep::Kind::kCall && a.name != b.name &&
            IsPlainScale(plan.suppliers, a.name) && IsPlainScale(plan.suppliers, b.name)) {
          std::swap(action.steps[i], action.steps[i + 1]);
          return;
        }
      }
      return;
    case 2:
      for (size_t i : calls) {
        const std::string old_name = action.steps[i].name;
        if (!IsPlainScale(plan.suppliers, old_name)) continue;
        SupplierSpec renamed = *std::find_if(plan.suppliers.begin(), plan.suppliers.end(),
                                             [&](const SupplierSpec& s) { return s.name == old_name; });
        renamed.name = fmt::format("{}_v{}", old_name, version);
        for (size_t j : calls) {
          if (action.steps[j].name == old_name) action.steps[j].name = renamed.name;
        }
        if (std::none_of(plan.suppliers.begin(), plan.suppliers.end(),
                         [&](const SupplierSpec& s) { return s.name == renamed.name; })) {
          plan.suppliers.push_back(std::move(renamed));
        }
        return;
      }
      return;
    default: {
      if (!calls.empty() && action.steps[calls.back()].name == kEchoSupplier) {
        action.steps.erase(action.steps.begin() + static_cast<std::ptrdiff_t>(calls.back()));
        return;
      }
      if (std::none_of(plan.suppliers.begin(), plan.suppliers.end(),
                       [](const SupplierSpec& s) { return s.name == kEchoSupplier; })) {
        SupplierSpec echo;
        echo.name = kEchoSupplier;
        echo.scale = 1;
        plan.suppliers.push_back(std::move(echo));
      }
      ActionStep echo;
      echo.kind = ActionStep::Kind::kCall;
      echo.name = kEchoSupplier;
      const size_t at = calls.empty() ? 0 : calls.back() + 1;
      action.steps.insert(action.steps.begin() + static_cast<std::ptrdiff_t>(at), echo);
      return;
    }
  }
}

// Arguments that change across a restore and plans deployed at restores,
// drawn after every other draw behind one gate of their own (the late-draw
// rule above; the range leaves out the gate draws of the quoted seeds,
// sim/run/seed_snapshot_test.cc). Every plan keeps the answer (EditPlan).
void DrawChangingCalls(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && (gate < kChangingCallsGateLow || gate > kChangingCallsGateHigh)) return;
  for (ActionSpec& action : scenario.actions) {
    for (ActionStep& step : action.steps) {
      if (step.kind == ActionStep::Kind::kCall && choices.Percent(30)) step.arg = ArgSource::kAttempt;
    }
  }
  for (size_t a = 1; a < scenario.attempts.size(); ++a) {
    if (!choices.Percent(50)) continue;
    const PlanSpec* before = scenario.DeployedPlan(static_cast<int>(a));
    PlanSpec plan = before != nullptr ? *before : PlanSpec{scenario.suppliers, scenario.actions, {}};
    const int64_t edits = choices.Range(1, 3);
    for (int64_t e = 0; e < edits; ++e) EditPlan(choices, plan, static_cast<int>(a) + 1);
    scenario.attempts[a].plan = std::move(plan);
  }
}

// Several subtasks and rescaling, drawn after every other draw behind one
// gate of their own (the late-draw rule above; the range leaves out the gate
// draws of the quoted seeds, sim/run/seed_snapshot_test.cc). Small max
// parallelisms come often, so that subtasks share key groups and a rescale
// moves keys; each restore may rescale, up or down.
void DrawParallelism(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  const bool open = forced || (gate >= 4 && gate <= 19) || (gate >= 53 && gate <= 61);  // 25%
  if (!open) return;
  static const int32_t kMaxParallelisms[] = {2, 3, 4, 8, 16, 128};
  scenario.max_parallelism = kMaxParallelisms[choices.Weighted({3, 2, 3, 2, 2, 1})];
  const int64_t widest = std::min<int64_t>(4, scenario.max_parallelism);
  scenario.parallelism = static_cast<int32_t>(choices.Range(2, widest));
  DURASIM_CHECK_LE(scenario.parallelism, scenario.max_parallelism);
  for (size_t a = 1; a < scenario.attempts.size(); ++a) {
    if (choices.Percent(40)) scenario.attempts[a].parallelism = static_cast<int32_t>(choices.Range(1, widest));
  }
  // Some faults aim at one subtask's points.
  for (size_t a = 0; a < scenario.attempts.size(); ++a) {
    const int32_t p = scenario.ParallelismOf(static_cast<int>(a) + 1);
    if (p == 1) continue;
    for (AttemptStep& step : scenario.attempts[a].steps) {
      if (step.kind == AttemptStep::Kind::kArm && choices.Percent(30)) {
        step.subtask = static_cast<int32_t>(choices.Below(static_cast<uint64_t>(p)));
      }
    }
  }
}

// The gate draws of DrawLogEvents that add log events: [from, to).
constexpr uint64_t kLogEventsGateFrom = 85;
constexpr uint64_t kLogEventsGateTo = 97;

// Log events (the log's lifecycle: docs/scenarios.md), drawn last of all
// behind one gate draw, so a seed whose gate falls outside the range names
// the same scenario as before they existed; the range leaves out the gate
// draws of the pinned and quoted seeds (sim/run/seed_snapshot_test.cc). A
// delete_records lands at a drawn place of a faulty attempt (never the
// healed last one), and so may one recreate_topic; retention is on for the
// whole run. Each may make a checkpoint's marker stale, and its restore must
// then be rejected.
void DrawLogEvents(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && (gate < kLogEventsGateFrom || gate >= kLogEventsGateTo)) return;
  if (choices.Percent(40)) scenario.log.retention_ms = choices.Range(5, 60);
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    if (!choices.Percent(60)) continue;
    AttemptStep deleted = Step(AttemptStep::Kind::kDeleteRecords);
    deleted.partition = static_cast<int32_t>(choices.Below(static_cast<uint64_t>(scenario.log.partitions)));
    deleted.offset = SmallBiased(choices, 8);
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(choices.Below(steps.size() + 1)), deleted);
  }
  // A re-created topic ends its attempt (the job fails over) and leaves
  // every earlier checkpoint stale: at most one, in a faulty attempt.
  // Tombstones with restores of older checkpoints: a restore older than a
  // committed cleanup is rejected (the committed cleanup boundary).
  if (!scenario.log.tombstones && choices.Percent(75)) {
    scenario.log.tombstones = true;
    for (size_t a = 1; a + 1 < scenario.attempts.size(); ++a) {  // never the healed last attempt
      if (choices.Percent(75)) scenario.attempts[a].restore = kRestorePrevious;
    }
    // Now and then one more attempt, before the healed one, that restores
    // the previous checkpoint after everything the faulty attempts pruned.
    if (choices.Percent(50)) {
      AttemptSpec older;
      older.restore = kRestorePrevious;
      older.steps.push_back(Step(AttemptStep::Kind::kRun));
      scenario.attempts.insert(scenario.attempts.end() - 1, older);
    }
  }
  // Slow fetches at the end of a faulty attempt meet the next attempt's
  // rebuild; now and then longer than the store's no-progress bound.
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    if (!choices.Percent(40)) continue;
    AttemptStep slow = Step(AttemptStep::Kind::kSlowFetch);
    slow.duration_ms = choices.Percent(85) ? choices.Range(1, 3000) : choices.Range(30'001, 40'000);
    scenario.attempts[a].steps.push_back(slow);
  }
  // Compaction at a drawn place of some faulty attempts.
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    if (!choices.Percent(40)) continue;
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(choices.Below(steps.size() + 1)),
                 Step(AttemptStep::Kind::kCompact));
  }
  // Never before the first attempt's opening checkpoint completes: every
  // later attempt restores one.
  if (scenario.attempts.size() > 1 && choices.Percent(35)) {
    const size_t a = choices.Below(scenario.attempts.size() - 1);
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    DURASIM_CHECK(a == 0 || scenario.attempts[a].restore.has_value());  // drawn before DrawBlame's new job
    const size_t at = NotBeforeOpening(scenario.attempts[a], choices.Below(steps.size() + 1));
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), Step(AttemptStep::Kind::kRecreateTopic));
  }
}

// The gate draws of DrawLogShapes that add its events: 38..49 but 44
// (11%; 44 is the gate of seed 1261, the quoted first kill of
// tombstones-without-boundary, and no pinned or quoted seed takes the rest).
bool LogShapesGateOpen(uint64_t gate) { return gate >= 38 && gate <= 49 && gate != 44; }

// Partitions added to the topic and tombstones compaction removes
// (docs/scenarios.md), drawn after every other draw behind a gate of their
// own (the late-draw rule above; the range leaves out the gate draws of the
// pinned and quoted seeds). An add_partitions lands at a drawn place of
// some faulty attempts (the attempt's clients keep their partitions, later
// attempts' keys move), now and then with one more attempt before the
// healed one that runs on the grown topic. Tombstones with
// log.delete_retention_ms get compact, wait past the horizon, compact at a
// drawn place of some faulty attempts. Some attempts restore the previous
// checkpoint: one from before the partitions, or older than a cleanup
// whose tombstones are gone.
void DrawLogShapes(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && !LogShapesGateOpen(gate)) return;
  const bool grow = choices.Percent(60);
  const bool expire = !grow || choices.Percent(50);
  auto insert_at_drawn_place = [&choices](std::vector<AttemptStep>& steps, const std::vector<AttemptStep>& added) {
    const auto at = static_cast<std::ptrdiff_t>(choices.Below(steps.size() + 1));
    steps.insert(steps.begin() + at, added.begin(), added.end());
  };
  if (grow) {
    for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
      if (a > 0 && !choices.Percent(50)) continue;
      AttemptStep added = Step(AttemptStep::Kind::kAddPartitions);
      added.count = choices.Range(1, 3);
      insert_at_drawn_place(scenario.attempts[a].steps, {added});
    }
    if (choices.Percent(60)) {
      AttemptSpec moved;
      moved.restore = choices.Percent(50) ? kRestorePrevious : kRestoreLatest;
      AttemptStep read = Step(AttemptStep::Kind::kRead);
      read.count = SmallBiased(choices, std::max<int64_t>(static_cast<int64_t>(scenario.inputs.size()), 1));
      moved.steps.push_back(read);
      moved.steps.push_back(Step(AttemptStep::Kind::kRun));
      if (choices.Percent(50)) {
        moved.steps.push_back(CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp_moved"));
        moved.steps.push_back(CheckpointStep(AttemptStep::Kind::kComplete, "cp_moved"));
      }
      moved.steps.push_back(Step(AttemptStep::Kind::kCrash));
      scenario.attempts.insert(scenario.attempts.end() - 1, moved);
    }
  }
  if (expire) {
    scenario.log.tombstones = true;
    scenario.log.delete_retention_ms = choices.Range(1, 40);
    for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
      if (!choices.Percent(60)) continue;
      AttemptStep wait = Step(AttemptStep::Kind::kRunFor);
      wait.duration_ms = scenario.log.delete_retention_ms + choices.Range(0, 40);
      insert_at_drawn_place(scenario.attempts[a].steps,
                            {Step(AttemptStep::Kind::kCompact), wait, Step(AttemptStep::Kind::kCompact)});
    }
  }
  for (size_t a = 1; a + 1 < scenario.attempts.size(); ++a) {
    if (choices.Percent(35)) scenario.attempts[a].restore = kRestorePrevious;
  }
}

class AttemptBuilder {
 public:
  AttemptBuilder(Choices& choices, const Swarm& swarm, int64_t inputs) : choices_(choices), swarm_(swarm), inputs_(inputs) {}

  AttemptSpec Build(bool first) {
    AttemptSpec attempt;
    if (first) {
      // A completed checkpoint before anything happens: every later attempt
      // has one to restore.
      Checkpoint(attempt, /*notify=*/true);
    } else {
      const bool older = Has(swarm_.script_faults, ScriptFault::kRestoreOlder) && choices_.Percent(30);
      attempt.restore = older ? kRestorePrevious : kRestoreLatest;
    }
    const int64_t phases = choices_.Range(1, 4);
    for (int64_t p = 0; p < phases; ++p) Phase(attempt);
    if (Has(swarm_.script_faults, ScriptFault::kCrashStep) && choices_.Percent(50)) {
      attempt.steps.push_back(Step(AttemptStep::Kind::kCrash));
    }
    return attempt;
  }

 private:
  void Phase(AttemptSpec& attempt) {
    if (choices_.Percent(80)) {
      AttemptStep read = Step(AttemptStep::Kind::kRead);
      read.count = choices_.Percent(30) ? -1 : SmallBiased(choices_, std::max<int64_t>(inputs_, 1));
      attempt.steps.push_back(read);
    }
    if (!swarm_.armed_kinds.empty() && choices_.Percent(swarm_.fault_percent)) {
      attempt.steps.push_back(ArmStep(choices_, swarm_));
    }
    if (Has(swarm_.script_faults, ScriptFault::kBrokerDown) && choices_.Percent(15)) {
      AttemptStep down = Step(AttemptStep::Kind::kBrokerDown);
      down.duration_ms = choices_.Percent(70) ? choices_.Range(1, 200) : choices_.Range(301, 600);
      attempt.steps.push_back(down);
    }
    if (choices_.Percent(25)) {
      attempt.steps.push_back(Step(AttemptStep::Kind::kRun));
    } else {
      AttemptStep run = Step(AttemptStep::Kind::kRunFor);
      run.duration_ms = SmallBiased(choices_, 40);
      attempt.steps.push_back(run);
    }
    if (choices_.Percent(50)) Checkpoint(attempt, /*notify=*/false);
  }

  void Checkpoint(AttemptSpec& attempt, bool always_complete) {
    const std::string id = fmt::format("cp{}", next_checkpoint_++);
    attempt.steps.push_back(CheckpointStep(AttemptStep::Kind::kCheckpoint, id));
    if (always_complete) {
      attempt.steps.push_back(CheckpointStep(AttemptStep::Kind::kComplete, id));
      return;
    }
    // The notification may come at once or after more work, or never.
    if (choices_.Percent(30)) {
      AttemptStep run = Step(AttemptStep::Kind::kRunFor);
      run.duration_ms = SmallBiased(choices_, 20);
      attempt.steps.push_back(run);
    }
    const bool abort = Has(swarm_.script_faults, ScriptFault::kCheckpointAbort) && choices_.Percent(25);
    const bool never = Has(swarm_.script_faults, ScriptFault::kNeverNotified) && choices_.Percent(20);
    if (never) return;
    attempt.steps.push_back(CheckpointStep(abort ? AttemptStep::Kind::kAbort : AttemptStep::Kind::kComplete, id));
  }

 public:
  int next_checkpoint_ = 0;

 private:
  Choices& choices_;
  const Swarm& swarm_;
  int64_t inputs_;
};

}  // namespace

std::string Swarm::Describe() const {
  std::vector<std::string> armed;
  for (FaultKind kind : armed_kinds) armed.push_back(NameOf(kind));
  std::vector<std::string> script;
  for (ScriptFault fault : script_faults) script.push_back(NameOf(fault));
  std::vector<std::string> forced;
  for (LateGate gate : forced_gates) forced.push_back(NameOf(gate));
  std::vector<std::string> aimed;
  for (AimedPoint point : aimed_points) aimed.push_back(NameOf(point));
  return fmt::format("armed=[{}] script=[{}] fault_rate={}% inputs_max={} keys_max={} actions_max={} "
                     "faulty_attempts_max={}{}{}",
                     fmt::join(armed, ","), fmt::join(script, ","), fault_percent, inputs_max, keys_max, actions_max,
                     faulty_attempts_max,
                     forced.empty() ? "" : fmt::format(" forced_gates=[{}]", fmt::join(forced, ",")),
                     aimed.empty() ? "" : fmt::format(" aimed_points=[{}]", fmt::join(aimed, ",")));
}

std::optional<EnumInfo> EnumInfoOf(LateGate gate) {
  switch (gate) {
    case LateGate::kWorld: return EnumInfo{"world", "memory reads and failing calls"};
    case LateGate::kChangingCalls: return EnumInfo{"changing_calls", "attempt-dependent arguments and plans"};
    case LateGate::kParallelism: return EnumInfo{"parallelism", "several subtasks and rescales"};
    case LateGate::kLogEvents: return EnumInfo{"log_events", "deleted records, retention, re-created topic, slow fetch"};
    case LateGate::kLogShapes: return EnumInfo{"log_shapes", "added partitions, tombstones compaction removes"};
    case LateGate::kAimedFaults: return EnumInfo{"aimed_faults", "faults aimed by meaning"};
    case LateGate::kSkippedNotices: return EnumInfo{"skipped_notices", "completions without notice"};
    case LateGate::kBlame: return EnumInfo{"blame", "fresh lineages and foreign records"};
  }
  return std::nullopt;
}

// Faults aimed by meaning (`arm: {put, key, seq, action, call}`), drawn
// last behind their own gate (see kLogEventsGateFrom) so that the quoted
// seeds keep their scenarios: in some faulty attempts, a put or call fault
// at one input key's puts of one kind, or at the tombstones when the store
// sends them.
// The pinned seeds draw 2, 15, 17, 23, 29, 31, 32, 63, 73, 80, 92 and 96
// here, seed 1261 (a quoted kill) 61.
constexpr uint64_t kAimedFaultsGateFrom = 33;
constexpr uint64_t kAimedFaultsGateTo = 61;

void DrawAimedFaults(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && (gate < kAimedFaultsGateFrom || gate >= kAimedFaultsGateTo)) return;
  if (scenario.inputs.empty()) return;
  const std::vector<FaultKind> put_kinds = {FaultKind::kRejectPut,  FaultKind::kLoseAck,
                                            FaultKind::kCancelPut,  FaultKind::kCrashAfterPutPersisted,
                                            FaultKind::kCrashAfterPutAcked, FaultKind::kCorruptRecord};
  // Nothing waits for a tombstone: a lost acknowledgement would change
  // nothing. (A cleanup record's acknowledgement matters: its tombstones wait
  // for it; DrawCleanupUnderCompaction aims lose_ack at it.)
  const std::vector<FaultKind> tombstone_kinds = {FaultKind::kRejectPut, FaultKind::kCrashAfterPutPersisted,
                                                  FaultKind::kCorruptRecord};
  const std::vector<FaultKind> call_kinds = {FaultKind::kCrashBetweenCalls, FaultKind::kCancelCall,
                                             FaultKind::kCrashAsyncInFlight};
  // Tombstones are safe with restores of older checkpoints since the
  // committed cleanup boundary (they are rejected cleanly).
  if (!scenario.log.tombstones && choices.Percent(30)) scenario.log.tombstones = true;
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {  // never the healed last attempt
    if (!choices.Percent(50)) continue;
    AttemptStep arm = Step(AttemptStep::Kind::kArm);
    FaultSelector& select = arm.select;
    if (scenario.log.tombstones && choices.Percent(60)) {
      arm.fault = tombstone_kinds[choices.Below(tombstone_kinds.size())];
      select.put = scenario.log.delete_retention_ms > 0 && choices.Percent(30) ? PutPoint::kCleanup : PutPoint::kTombstone;
    } else if (choices.Percent(75)) {
      arm.fault = put_kinds[choices.Below(put_kinds.size())];
      select.put = std::vector<PutPoint>{PutPoint::kStart, PutPoint::kPending, PutPoint::kResult,
                                         PutPoint::kComplete}[choices.Below(4)];
    } else {
      arm.fault = call_kinds[choices.Below(call_kinds.size())];
    }
    const bool unawaited = select.put == PutPoint::kTombstone || select.put == PutPoint::kCleanup;
    if (!unawaited || choices.Percent(30)) {
      select.key = scenario.inputs[choices.Below(scenario.inputs.size())].key;
    }
    if (choices.Percent(20)) select.seq = choices.Range(1, 3);
    if (choices.Percent(30)) select.action = scenario.actions[choices.Below(scenario.actions.size())].name;
    const bool of_call = !select.put || select.put == PutPoint::kPending || select.put == PutPoint::kResult;
    if (of_call && choices.Percent(30)) select.call = static_cast<int32_t>(choices.Below(2));
    arm.nth = choices.Percent(75) ? 1 : 2;
    // Tombstones come when a checkpoint completes: armed first, or never.
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    const size_t at = unawaited ? 0 : choices.Below(steps.size() + 1);
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), arm);
  }
}

// Completions without notice (`complete: {id, notify: false}`): Flink's
// notifications are best-effort, and the runtime must release the entry of
// such a checkpoint when a later completion arrives. Drawn last behind its
// own gate (see kLogEventsGateFrom).
// The pinned seeds draw 2, 11, 20, 57, 64, 87 and 91 here.
constexpr uint64_t kSkippedNoticesGateFrom = 21;
constexpr uint64_t kSkippedNoticesGateTo = 51;

void DrawSkippedNotices(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && (gate < kSkippedNoticesGateFrom || gate >= kSkippedNoticesGateTo)) return;
  for (AttemptSpec& attempt : scenario.attempts) {
    for (AttemptStep& step : attempt.steps) {
      if (step.kind == AttemptStep::Kind::kComplete && choices.Percent(40)) step.notify = false;
    }
  }
}

// Blame where it belongs (docs/scenarios.md, "Lineages" and "Records the
// run did not write"), drawn last behind its own gate (see
// kLogEventsGateFrom). A new job: the last faulty attempt starts fresh (no
// checkpoint restored) and completes a checkpoint of its own first, so the
// healed attempt restores this job's; the checkpoints it would complete or
// abort of the job before are left to that job. A record from outside the
// run: put into the topic in the healed attempt, after its restore, where no
// rebuild reads it, so the run's verdict must not change (a foreign record a
// rebuild reads turns every finding into an error, which a sweep would save
// as a failing seed and which would hide a mutant's kill).
// The pinned seeds draw 1, 25, 28, 44, 46, 58, 69, 71, 72, 87, 89 and 97
// here; the other seeds the docs quote and the kill matrix's first kills of
// window 1 draw 0, 5, 6, 8, 17, 36, 41, 48, 52, 59, 64, 76, 79, 88 and 94.
constexpr uint64_t kBlameGateFrom = 9;
constexpr uint64_t kBlameGateTo = 17;

void DrawBlame(Choices& choices, Scenario& scenario, bool forced) {
  const uint64_t gate = choices.Below(100);
  if (!forced && (gate < kBlameGateFrom || gate >= kBlameGateTo)) return;
  const size_t attempts = scenario.attempts.size();
  // A broker still down when the new job starts would make it decline its
  // first checkpoint, and the healed attempt would restore the old job's:
  // no broker goes down before it. (One that goes down in the new job's
  // attempt does so after that checkpoint, which comes first; the healed
  // last attempt has no faults.)
  const bool broker_down =
      attempts >= 3 && std::any_of(scenario.attempts.begin(), scenario.attempts.end() - 2, [](const AttemptSpec& a) {
        return std::any_of(a.steps.begin(), a.steps.end(),
                           [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kBrokerDown; });
      });
  if (attempts >= 3 && choices.Percent(70) && !broker_down) {
    AttemptSpec& fresh = scenario.attempts[attempts - 2];
    fresh.restore.reset();
    std::set<std::string> taken;
    for (const AttemptStep& step : fresh.steps) {
      if (step.kind == AttemptStep::Kind::kCheckpoint) taken.insert(step.checkpoint);
    }
    std::erase_if(fresh.steps, [&](const AttemptStep& step) {
      return (step.kind == AttemptStep::Kind::kComplete || step.kind == AttemptStep::Kind::kAbort) &&
             taken.count(step.checkpoint) == 0;
    });
    fresh.steps.insert(fresh.steps.begin(), {CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp_fresh"),
                                             CheckpointStep(AttemptStep::Kind::kComplete, "cp_fresh")});
  }
  if (choices.Percent(60)) {
    AttemptStep foreign = Step(AttemptStep::Kind::kForeign);
    foreign.partition = static_cast<int32_t>(choices.Below(static_cast<uint64_t>(scenario.PartitionsMax())));
    foreign.foreign.key = fmt::format("outside-{}", choices.Below(4));
    if (choices.Percent(40)) {
      foreign.foreign.tombstone = true;
    } else {
      foreign.foreign.value = choices.Percent(50) ? "{\"not\": \"a state\"}" : "written by another producer";
    }
    // Into a partition the topic has from the start: one an add_partitions
    // step adds may not exist yet at this step (an earlier attempt may
    // crash before it adds them; seed 7775 aborted the harness).
    foreign.partition %= scenario.log.partitions;
    DURASIM_CHECK(foreign.partition >= 0 && foreign.partition < scenario.log.partitions);
    std::vector<AttemptStep>& steps = scenario.attempts.back().steps;
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(choices.Below(steps.size() + 1)), foreign);
  }
}

Swarm FullSwarm() {
  Swarm swarm;
  swarm.armed_kinds = AllOf<FaultKind>();
  swarm.script_faults = AllOf<ScriptFault>();
  swarm.fault_percent = 60;
  swarm.inputs_max = 50;
  swarm.keys_max = 8;
  swarm.actions_max = 4;
  swarm.faulty_attempts_max = 4;
  return swarm;
}

Swarm DrawSwarm(Choices& choices) {
  Swarm swarm;
  for (FaultKind kind : AllOf<FaultKind>()) {
    if (!IsLate(kind) && choices.Percent(50)) swarm.armed_kinds.push_back(kind);
  }
  for (ScriptFault fault : AllOf<ScriptFault>()) {
    if (choices.Percent(50)) swarm.script_faults.push_back(fault);
  }
  swarm.fault_percent = static_cast<uint64_t>(choices.Range(10, 90));
  const int64_t size = static_cast<int64_t>(choices.Weighted({5, 4, 1}));
  swarm.inputs_max = std::vector<int64_t>{5, 20, 50}[static_cast<size_t>(size)];
  swarm.keys_max = choices.Range(1, 8);
  swarm.actions_max = choices.Range(1, 4);
  swarm.faulty_attempts_max = choices.Range(1, 4);
  return swarm;
}

Scenario GenerateScenario(Choices& choices, const Swarm& swarm) {
  Scenario scenario;
  scenario.name = "generated";
  // Faults are armed blind (a drawn nth may lie past the attempt's last
  // point): one that never fires is no mistake of the scenario's.
  scenario.expect.allow_unfired = true;
  scenario.log.partitions = static_cast<int32_t>(choices.Range(1, 4));
  scenario.log.linger_ms = choices.Range(0, 5);
  scenario.log.ack_latency_ms = choices.Range(0, 3);
  scenario.suppliers = GenerateSuppliers(choices);
  scenario.actions = GenerateActions(choices, swarm, scenario.suppliers.size());
  scenario.inputs = GenerateInputs(choices, swarm);
  AttemptBuilder builder(choices, swarm, static_cast<int64_t>(scenario.inputs.size()));
  const int64_t faulty = choices.Range(1, swarm.faulty_attempts_max);
  for (int64_t i = 0; i < faulty; ++i) scenario.attempts.push_back(builder.Build(i == 0));
  // The healed phase: faults off, every input must finish.
  AttemptSpec healed;
  healed.restore = kRestoreLatest;
  AttemptStep read_all = Step(AttemptStep::Kind::kRead);
  read_all.count = -1;
  healed.steps.push_back(read_all);
  scenario.attempts.push_back(healed);
  DrawLateAdditions(choices, swarm, scenario);
  const auto forced = [&swarm](LateGate gate) {
    return std::find(swarm.forced_gates.begin(), swarm.forced_gates.end(), gate) != swarm.forced_gates.end();
  };
  DrawWorldAdditions(choices, scenario, forced(LateGate::kWorld));
  DrawChangingCalls(choices, scenario, forced(LateGate::kChangingCalls));
  DrawParallelism(choices, scenario, forced(LateGate::kParallelism));
  DrawLogEvents(choices, scenario, forced(LateGate::kLogEvents));
  DrawLogShapes(choices, scenario, forced(LateGate::kLogShapes));
  DrawAimedFaults(choices, scenario, forced(LateGate::kAimedFaults));
  DrawSkippedNotices(choices, scenario, forced(LateGate::kSkippedNotices));
  DrawBlame(choices, scenario, forced(LateGate::kBlame));
  // Later draws add steps and attempts before the healed one, never after.
  DURASIM_CHECK_GE(scenario.attempts.size(), 2u);
  DURASIM_CHECK(scenario.attempts.back().restore == kRestoreLatest);
  return scenario;
}

// Faults aimed at what only the scenario's store design does (kafka-rewrite:
// its rewrites at a snapshot, refused, unacknowledged or crashed after),
// armed ahead of a checkpoint of a faulty attempt. Drawn after the design,
// so that the other designs' scenarios stay as they were.
void DrawDesignFaults(Choices& choices, Scenario& scenario) {
  if (scenario.store != StoreDesign::kKafkaRewrite || !choices.Percent(70)) return;
  const std::vector<FaultKind> rewrite_kinds = {FaultKind::kRejectPut, FaultKind::kLoseAck,
                                                FaultKind::kCrashAfterPutPersisted, FaultKind::kCrashAfterPutAcked};
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {  // never the healed last attempt
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    std::vector<size_t> checkpoints;
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].kind == AttemptStep::Kind::kCheckpoint) checkpoints.push_back(i);
    }
    if (checkpoints.empty() || !choices.Percent(70)) continue;
    AttemptStep arm = Step(AttemptStep::Kind::kArm);
    arm.fault = rewrite_kinds[choices.Below(rewrite_kinds.size())];
    arm.select.put = PutPoint::kRewrite;
    arm.nth = choices.Percent(75) ? 1 : 2;
    const size_t at = checkpoints[choices.Below(checkpoints.size())];
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), arm);
  }
}

void DropRewriteArms(Scenario& scenario) {
  for (AttemptSpec& attempt : scenario.attempts) {
    std::erase_if(attempt.steps, [](const AttemptStep& step) {
      return step.kind == AttemptStep::Kind::kArm && step.select.put == PutPoint::kRewrite;
    });
  }
}

// The scenario's input keys, in order of their first input.
std::vector<std::string> DistinctKeys(const Scenario& scenario) {
  std::vector<std::string> distinct;
  for (const InputSpec& input : scenario.inputs) {
    if (std::find(distinct.begin(), distinct.end(), input.key) == distinct.end()) distinct.push_back(input.key);
  }
  return distinct;
}

// The faults aimed at a renamed key follow it.
void RenameAimedKeys(Scenario& scenario, const std::map<std::string, std::string>& renamed) {
  for (AttemptSpec& attempt : scenario.attempts) {
    for (AttemptStep& step : attempt.steps) {
      if (!step.select.key) continue;
      if (auto it = renamed.find(*step.select.key); it != renamed.end()) step.select.key = it->second;
    }
  }
}

// Keys like real keys (model/key_shapes.h): for 40% of the seeds, the
// scenario's keys are renamed to keys of one drawn shape, its
// separator-prefix pair first, so that the shapes meet in one run. A
// scenario of one key and several inputs gets the pair's second key on
// every other input. `choices` is the seed's own key-shape stream, apart
// from the scenario's: every design of a seed gets the same keys, and a
// seed that draws no shape keeps the scenario it had.
void DrawKeyShape(Choices& choices, Scenario& scenario, bool boosted) {
  if (scenario.inputs.empty() || !choices.Percent(boosted ? kBoostedPercent : 40)) return;
  const std::vector<KeyShape>& shapes = AllOf<KeyShape>();
  const KeyShape shape = shapes[choices.Below(shapes.size())];
  std::vector<std::string> keys = KeysOfShape(shape);
  for (size_t i = keys.size() - 1; i > 2; --i) std::swap(keys[i], keys[2 + choices.Below(i - 1)]);  // the pair stays first
  // A boosted seed's third key is, half the time, the first (after the
  // shuffle) of the shape's keys that is of another shape too, so that two
  // shapes meet in a run of three keys. Only the empty shape has such keys
  // ("1" is numeric, "_ü" not ASCII); a typed-key draw may rename the third
  // key again (DrawTypedKeys).
  if (boosted && choices.Percent(50)) {
    const auto other = std::find_if(keys.begin() + 2, keys.end(), [shape](const std::string& key) {
      const std::vector<KeyShape> its = KeyShapesOf({InputSpec{key, 0, {}}});
      return std::any_of(its.begin(), its.end(), [shape](KeyShape of) { return of != shape; });
    });
    if (other != keys.end()) std::iter_swap(keys.begin() + 2, other);
  }
  const std::vector<std::string> distinct = DistinctKeys(scenario);
  DURASIM_CHECK_LE(distinct.size(), keys.size());  // a generated scenario has at most 8 keys
  std::map<std::string, std::string> renamed;
  for (size_t i = 0; i < distinct.size(); ++i) renamed[distinct[i]] = keys[i];
  for (size_t i = 0; i < scenario.inputs.size(); ++i) {
    InputSpec& input = scenario.inputs[i];
    input.key = distinct.size() == 1 && i % 2 == 1 ? keys[1] : renamed.at(input.key);
  }
  RenameAimedKeys(scenario, renamed);
}

// The aimed cleanup chain (the aimed point cleanup_under_compaction,
// properties/aimed_points.h) comes first, right after the job's opening
// checkpoint, with a checkpoint of its own once some inputs are read and
// done, so that it prunes something: these are its first steps. It reads
// one input: the others are left for the faults moved after it
// (TakeArmsBefore) to meet a run, and a call that fails the job over
// rarely comes before the chain's tombstones.
std::vector<AttemptStep> AimedChainHead() {
  AttemptStep read = Step(AttemptStep::Kind::kRead);
  read.count = 1;
  return {read, Step(AttemptStep::Kind::kRun), CheckpointStep(AttemptStep::Kind::kCheckpoint, kCleanupCheckpoint),
          CheckpointStep(AttemptStep::Kind::kComplete, kCleanupCheckpoint)};
}

// Takes the arms among the steps before `after` out (but those at
// tombstones and cleanup records, aimed at the chain), moving `after` back
// by as many: they go after the aimed chain, so that the attempt's faults
// and a failure saved later leave the chain be.
std::vector<AttemptStep> TakeArmsBefore(std::vector<AttemptStep>& steps, std::ptrdiff_t& after) {
  std::vector<AttemptStep> kept;
  std::vector<AttemptStep> arms;
  for (auto it = steps.begin(); it != steps.begin() + after; ++it) {
    const bool at_chain = it->select.put == PutPoint::kTombstone || it->select.put == PutPoint::kCleanup;
    (it->kind == AttemptStep::Kind::kArm && !at_chain ? arms : kept).push_back(*it);
  }
  steps.erase(steps.begin(), steps.begin() + after);
  steps.insert(steps.begin(), kept.begin(), kept.end());
  after = static_cast<std::ptrdiff_t>(kept.size());
  return arms;
}

// The fault aimed at a cleanup record of DrawCleanupUnderCompaction's chain:
// the first one (a lost acknowledgement drops its tombstones, which wait
// for it). `aimed`: a third of them so; a third past the chain's first
// cleanup record, so that its tombstones are written (and removed) before
// the fault meets another; a third a refused or corrupted tombstone past
// the first (no crash: the chain goes on).
AttemptStep CleanupFault(Choices& choices, bool aimed) {
  AttemptStep arm = Step(AttemptStep::Kind::kArm);
  const std::vector<FaultKind> kinds = {FaultKind::kRejectPut, FaultKind::kCrashAfterPutPersisted,
                                        FaultKind::kCorruptRecord, FaultKind::kLoseAck,
                                        FaultKind::kCrashAfterPutAcked};
  arm.fault = kinds[choices.Below(kinds.size())];
  arm.select.put = PutPoint::kCleanup;
  arm.nth = 1;
  if (aimed) {
    switch (choices.Below(3)) {
      case 0: break;  // the chain's own cleanup record, as unaimed (finding 3)
      case 1: arm.nth = 2; break;
      default:
        arm.nth = 2;
        arm.fault = choices.Percent(50) ? FaultKind::kRejectPut : FaultKind::kCorruptRecord;
        arm.select.put = PutPoint::kTombstone;
        break;
    }
  }
  return arm;
}

// A point inside the log-shapes gate (issue 32's rare pairs, finding 3):
// where a scenario has tombstones a compaction can remove
// (log.delete_retention_ms), for 70% of them one faulty attempt that
// completes a checkpoint then compacts, waits past the delete horizon and
// compacts again, right after its last completion; for 75% of those a
// fault is aimed at the attempt's first cleanup record (armed first:
// prunes come when checkpoints complete; a lost acknowledgement drops its
// tombstones, which wait for it), and the next attempt (one more before the
// healed last, if it was next) restores the checkpoint before the latest,
// older than the prune. `choices` is the seed's own cleanup stream: a seed this draws
// nothing for keeps its scenario. `aimed` (the aimed point
// cleanup_under_compaction): always, not for 70%, in the first attempt
// right after the opening checkpoint (AimedChainHead); the attempt and place
// drawn for the unaimed chain are drawn all the same (the stream's draws
// stay those of an unaimed seed) and not used. The next attempt's restore
// of the previous checkpoint is then older than the prune only where the
// first attempt completes no later checkpoint (cp_mid_run, its own). (The
// reconcile aim, drawn after this, puts its crashing attempt before the
// chain's: the chain's attempt then replays it.)
void DrawCleanupUnderCompaction(Choices& choices, Scenario& scenario, bool aimed) {
  if (!scenario.log.tombstones || scenario.log.delete_retention_ms <= 0) return;
  if (!choices.Percent(70) && !aimed) return;
  std::vector<size_t> completing;  // faulty attempts that complete a checkpoint
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    const std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    if (std::any_of(steps.begin(), steps.end(), [](const AttemptStep& s) { return s.kind == AttemptStep::Kind::kComplete; })) {
      completing.push_back(a);
    }
  }
  if (completing.empty()) return;
  size_t a = completing[choices.Below(completing.size())];
  std::vector<AttemptStep>* steps = &scenario.attempts[a].steps;
  const auto last_complete = std::find_if(steps->rbegin(), steps->rend(), [](const AttemptStep& s) {
    return s.kind == AttemptStep::Kind::kComplete;
  });
  auto after = static_cast<std::ptrdiff_t>(steps->rend() - last_complete);
  std::vector<AttemptStep> compaction;
  if (aimed) {
    a = 0;
    steps = &scenario.attempts[a].steps;
    after = AfterFirstCompletion(*steps);
    compaction = AimedChainHead();
  }
  AttemptStep acked = Step(AttemptStep::Kind::kRunFor);  // the tombstones follow their cleanup's ack
  acked.duration_ms = choices.Range(1, 20);
  AttemptStep past_horizon = Step(AttemptStep::Kind::kRunFor);
  past_horizon.duration_ms = scenario.log.delete_retention_ms + choices.Range(1, 20);
  compaction.insert(compaction.end(), {acked, Step(AttemptStep::Kind::kCompact), past_horizon,
                                        Step(AttemptStep::Kind::kCompact)});
  if (aimed) {
    const std::vector<AttemptStep> arms = TakeArmsBefore(*steps, after);
    compaction.insert(compaction.end(), arms.begin(), arms.end());
  }
  steps->insert(steps->begin() + after, compaction.begin(), compaction.end());
  if (!choices.Percent(75)) return;
  const AttemptStep arm = CleanupFault(choices, aimed);
  steps->insert(steps->begin(), arm);
  // A restore of an older checkpoint stays within one job: none where a
  // later attempt starts fresh (DrawBlame's new job).
  if (std::any_of(scenario.attempts.begin() + 1, scenario.attempts.end(),
                  [](const AttemptSpec& attempt) { return !attempt.restore.has_value(); })) {
    return;
  }
  if (a + 2 == scenario.attempts.size()) {
    // One more attempt before the healed last, to restore the older one.
    AttemptSpec older;
    AttemptStep read = Step(AttemptStep::Kind::kRead);
    read.count = SmallBiased(choices, std::max<int64_t>(static_cast<int64_t>(scenario.inputs.size()), 1));
    older.steps = {read, Step(AttemptStep::Kind::kRun), Step(AttemptStep::Kind::kCrash)};
    scenario.attempts.insert(scenario.attempts.end() - 1, older);
  }
  scenario.attempts[a + 1].restore = kRestorePrevious;
}

// Reconcilers (model/reconcile.h): for 30% of the seeds, each supplier
// gets one with 60%, the same in every plan that declares it: mostly
// `truth` (what the supplier did), else one to three scripted answers by
// asking. `choices` is the seed's own reconciler stream: a seed this draws
// nothing for keeps its scenario.
void DrawReconcilers(Choices& choices, Scenario& scenario, bool boosted) {
  if (!choices.Percent(boosted ? kBoostedPercent : 30)) return;
  std::map<std::string, std::vector<ReconcileAnswer>> drawn;
  for (const SupplierSpec& supplier : scenario.suppliers) {
    if (!choices.Percent(boosted ? kBoostedReconcilerPercent : 60)) continue;
    std::vector<ReconcileAnswer> answers = {ReconcileAnswer::kTruth};
    if (!choices.Percent(boosted ? kBoostedTruthPercent : 60)) {
      answers.clear();
      const std::vector<ReconcileAnswer>& all = AllOf<ReconcileAnswer>();
      for (int64_t n = choices.Range(1, 3); n > 0; --n) answers.push_back(all[choices.Below(all.size())]);
    }
    drawn[supplier.name] = answers;
  }
  auto apply = [&drawn](std::vector<SupplierSpec>& suppliers) {
    for (SupplierSpec& supplier : suppliers) {
      if (auto it = drawn.find(supplier.name); it != drawn.end()) supplier.reconcile = it->second;
    }
  };
  apply(scenario.suppliers);
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) apply(attempt.plan->suppliers);
  }
}

// Restores from union lists written by hand (model/hand_made_markers.h):
// for 25% of the seeds, each restoring attempt with 40% replaces its
// checkpoint's list by one of: a current marker at the log's end beside the
// checkpoint's own offsets in the legacy form (read: the smaller offsets
// win), the legacy form alone, the same pair in the current form, or, in an
// attempt before the last, a list every store must reject (a version no
// store writes, another topic). A legacy entry needs a store without
// tombstones and a topic no earlier attempt re-created (it names neither
// boundaries nor the topic). Drawn before the design's fit, alike for every design: fluss
// keeps each marker's offsets only (FitToDesign). `choices` is the seed's
// own stream: a seed this draws nothing for keeps its scenario.
void DrawHandMadeMarkers(Choices& choices, Scenario& scenario, bool boosted) {
  if (!choices.Percent(boosted ? kBoostedRarePercent : 25)) return;
  bool recreated = false;  // by an attempt before the one at hand
  HandMadeMarkerSpec at_end;
  at_end.offsets = HandMadeMarkerSpec::Offsets::kLogEnd;
  HandMadeMarkerSpec legacy;
  legacy.version = RecoveryMarker::kLegacyVersion;
  for (size_t a = 0; a < scenario.attempts.size(); ++a) {
    AttemptSpec& attempt = scenario.attempts[a];
    const bool legacy_readable = !scenario.TombstonesEver() && !recreated;
    recreated = recreated || std::any_of(attempt.steps.begin(), attempt.steps.end(), [](const AttemptStep& s) {
      return s.kind == AttemptStep::Kind::kRecreateTopic;
    });
    if (!attempt.restore || !choices.Percent(40)) continue;
    const bool last = a + 1 == scenario.attempts.size();
    switch (choices.Below(4)) {
      case 0:
        attempt.markers = {at_end, legacy_readable ? legacy : HandMadeMarkerSpec{}};
        break;
      case 1:
        attempt.markers = {legacy_readable ? legacy : HandMadeMarkerSpec{}};
        break;
      case 2:
        attempt.markers = {HandMadeMarkerSpec{}, at_end};
        break;
      default: {
        HandMadeMarkerSpec unusable;
        if (choices.Below(2) == 0) {
          unusable.version = 3;
        } else {
          unusable.topic = "another-topic";
        }
        if (last) {
          attempt.markers = {at_end, HandMadeMarkerSpec{}};
        } else {
          attempt.markers = {unusable};
        }
        break;
      }
    }
  }
}

// The real store's choices (issue 28, part 4): for 30% of the seeds whose
// topic gains partitions (a Kafka design, with a store), the store rejects a
// changed partition set as the real one does (`store_options:
// {added_partitions: reject}`): a restore of a checkpoint taken before the
// partitions came must then be rejected. `choices` is the seed's own
// stream: a seed this draws nothing for keeps its scenario.
void DrawStoreOptions(Choices& choices, Scenario& scenario, bool boosted) {
  const bool adds = std::any_of(scenario.attempts.begin(), scenario.attempts.end(), [](const AttemptSpec& attempt) {
    return std::any_of(attempt.steps.begin(), attempt.steps.end(),
                       [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kAddPartitions; });
  });
  if (!adds || scenario.store == StoreDesign::kFluss || !scenario.durable.execution) return;
  if (choices.Percent(boosted ? kBoostedPercent : 30)) scenario.store_options.added_partitions = AddedPartitions::kReject;
}

// Whether every input leaves exactly one state, all of one key: one input
// key, and every plan has a single action, on the input event alone. Then
// the real get() (`store_options: {get: evict_on_divergence}`) can meet no
// divergence (one state per (key, seq)), and a miss can find no later state
// cached (a key's inputs run one after another, so a state of seq n + 1
// exists only once seq n's is in the log): its eviction never removes a
// state a replay still needs. Elsewhere it does (docs/findings.md, finding
// 1), which a sweep of correct code would report as a failure.
bool OneStatePerInputOfOneKey(const Scenario& scenario) {
  if (scenario.inputs.size() < 2) return false;
  for (const InputSpec& input : scenario.inputs) {
    if (input.key != scenario.inputs.front().key) return false;
  }
  const auto one_action_on_input = [](const std::vector<ActionSpec>& actions) {
    return actions.size() == 1 && actions.front().on == std::vector<std::string>{kInputEventType};
  };
  if (!one_action_on_input(scenario.actions)) return false;
  return std::all_of(scenario.attempts.begin(), scenario.attempts.end(), [&](const AttemptSpec& attempt) {
    return !attempt.plan || one_action_on_input(attempt.plan->actions);
  });
}

// Typed keys (issue 28, #1099; model/typed_key.h): for 20% of the seeds
// with two keys or more, two become twins of one text (the first two, or
// the last two of four or more, so that a key-shape pair stays; of three,
// half of a boosted seed's twins are the last two), the
// String key "<n>" and the Long key n (n in 0..9), so that a store naming
// states by the key's text (mutant key-to-string) mixes them up where one
// subtask holds both. The faults aimed at either key follow it. `choices`
// is the seed's own stream: a seed this draws nothing for keeps its scenario.
void DrawTypedKeys(Choices& choices, Scenario& scenario, bool boosted) {
  const std::vector<std::string> distinct = DistinctKeys(scenario);
  if (distinct.size() < 2 || !choices.Percent(boosted ? kBoostedRarePercent : 20)) return;
  const int64_t n = choices.Range(0, 9);
  // The last two keys when there are four or more: the first two are the
  // key-shape draw's pair (DrawKeyShape), which stays.
  // Of three keys, a boosted seed's twins are half the time the last two
  // (the pair's first key, an empty one say, meets the twins).
  const bool last_two = distinct.size() >= 4 || (boosted && distinct.size() == 3 && choices.Percent(50));
  const size_t first = last_two ? distinct.size() - 2 : 0;
  std::map<std::string, std::string> all = {{distinct[first], std::to_string(n)}, {distinct[first + 1], LongKey(n)}};
  // The String twin's text may be another key's already: that key takes the
  // String twin's old name.
  for (size_t i = 0; i < distinct.size(); ++i) {
    if (i != first && i != first + 1 && distinct[i] == std::to_string(n)) all[distinct[i]] = distinct[first];
  }
  for (InputSpec& input : scenario.inputs) {
    if (auto it = all.find(input.key); it != all.end()) input.key = it->second;
  }
  RenameAimedKeys(scenario, all);
}

// Steps during a rebuild (issue 28): for 20% of the seeds whose last (healed)
// attempt restores, the log acts while that restore's rebuild reads
// (`restore: {during_rebuild: [...]}`): another producer appends a record
// that is no action state to partition 0 (a zombie's late write) and, with
// 30%, a partition is added (a metadata change). A correct rebuild reads to
// the end it captured first (mutant rebuild-reads-appended reads the record
// and rejects a valid restore). Only the last restore: a later one would
// read the record (a foreign read, after which nothing is judged).
// `choices` is the seed's own stream: a seed this draws nothing for keeps
// its scenario.
void DrawStepsDuringRebuild(Choices& choices, Scenario& scenario, bool boosted) {
  AttemptSpec& last = scenario.attempts.back();
  if (scenario.attempts.size() < 2 || !last.restore || !choices.Percent(boosted ? kBoostedRarePercent : 20)) return;
  AttemptStep append = Step(AttemptStep::Kind::kForeign);
  append.foreign.key = "zombie";
  append.foreign.value = "a late write from outside the job";
  last.during_rebuild.push_back(append);
  if (scenario.PartitionsMax() < limits::kPartitionsMax && choices.Percent(30)) {
    AttemptStep added = Step(AttemptStep::Kind::kAddPartitions);
    added.count = 1;
    last.during_rebuild.push_back(added);
  }
}

// A log configuration that changes between attempts (issue 28). Off to on
// (a tenth of the seeds without tombstones and with two attempts or more:
// an upgrade that enables cleanup): the first restoring attempt after one
// that completes a checkpoint deploys the job with tombstones. On to off
// (half of the seeds with tombstones whose first attempt completes a
// checkpoint first): two attempts go in after the first: the job restores,
// reads everything, runs 1-40 ms, checkpoints, completes (its prune writes
// the finished states' tombstones, the keys in flight keep their records
// ahead of them) and fails; the job deployed without tombstones restores
// that, checkpoints at once (those keys rewind its marker ahead of the
// tombstones) and fails; the attempts that follow restore it and keep the
// new setting. `choices` is the seed's own stream: a seed this draws nothing
// for keeps its scenario. `legacy_aimed`: none (the seed aims at version-1
// markers, which no store with tombstones reads).
void DrawTombstoneMigration(Choices& choices, Scenario& scenario, bool boosted, bool legacy_aimed) {
  if (scenario.attempts.size() < 2 || legacy_aimed) return;
  if (!scenario.log.tombstones) {
    if (!choices.Percent(boosted ? kBoostedRarePercent : 10)) return;
    bool completed = false;
    for (size_t a = 0; a < scenario.attempts.size(); ++a) {
      if (a > 0 && completed && scenario.attempts[a].restore) {
        scenario.attempts[a].tombstones = true;
        return;
      }
      const std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
      completed = completed || std::any_of(steps.begin(), steps.end(), [](const AttemptStep& s) {
        return s.kind == AttemptStep::Kind::kComplete;
      });
    }
    return;
  }
  // The first attempt's first steps, the arms at rewrites, tombstones and
  // cleanup records aside (such faults go there, and cp0 rewrites and prunes
  // nothing), complete a checkpoint: the inserted attempt has one to restore.
  std::vector<AttemptStep::Kind> first;
  for (const AttemptStep& step : scenario.attempts.front().steps) {
    const bool not_at_cp0 = step.select.put == PutPoint::kRewrite || step.select.put == PutPoint::kTombstone ||
                            step.select.put == PutPoint::kCleanup;
    if (step.kind != AttemptStep::Kind::kArm || !not_at_cp0) first.push_back(step.kind);
  }
  const bool first_completes =
      first.size() >= 2 && first[0] == AttemptStep::Kind::kCheckpoint && first[1] == AttemptStep::Kind::kComplete;
  if (!first_completes || !choices.Percent(50)) return;
  AttemptStep read;
  read.kind = AttemptStep::Kind::kRead;
  read.count = -1;
  AttemptStep run;
  run.kind = AttemptStep::Kind::kRunFor;
  run.duration_ms = choices.Range(1, 40);
  AttemptStep crash;
  crash.kind = AttemptStep::Kind::kCrash;
  AttemptSpec pruning;
  pruning.restore = "latest";
  pruning.steps = {read, run, CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp_pruning"),
                   CheckpointStep(AttemptStep::Kind::kComplete, "cp_pruning"), crash};
  AttemptSpec migrated;
  migrated.restore = "latest";
  migrated.tombstones = false;
  migrated.steps = {CheckpointStep(AttemptStep::Kind::kCheckpoint, "cp_migrated"),
                    CheckpointStep(AttemptStep::Kind::kComplete, "cp_migrated"), crash};
  scenario.attempts.insert(scenario.attempts.begin() + 1, {pruning, migrated});
  // The next attempt, if it restores, restores the migrated job's checkpoint.
  if (scenario.attempts[3].restore) scenario.attempts[3].restore = "latest";
}

// The real get() as a store option, where it evicts nothing a replay needs
// (OneStatePerInputOfOneKey): half of such seeds with a store. What it
// checks there is that a lookup keeps the later states it must keep (mutant
// eviction-on-every-get).
void DrawGetEviction(Choices& choices, Scenario& scenario) {
  if (!scenario.durable.execution || !OneStatePerInputOfOneKey(scenario)) return;
  if (choices.Percent(50)) scenario.store_options.get = GetEviction::kOnDivergence;
}

// The runtime's other modes (issue 28): for 30% of the seeds, half persist
// a call without a reconciler only at its completion (`durable: {pending:
// reconcilable}`, Flink Agents main's pattern), a tenth run without a store
// (`durable: {execution: off}`; 30% of a boosted seed's), a fifth run async
// calls synchronously (`durable: {async: sync_fallback}`; 30% of a boosted
// seed's), 30% of the rest run the
// worker-pool engine (`durable: {engine: worker_pool}`), and each action whose
// failures fail the job or end it gets, with 40%, `on_error: {continue:
// <fallback>}` (its catch block goes on). `choices` is the seed's own
// stream: a seed this draws nothing for keeps its scenario.
void DrawRuntimeModes(Choices& choices, Scenario& scenario, bool boosted) {
  if (!choices.Percent(boosted ? kBoostedPercent : 30)) return;
  if (choices.Percent(50)) scenario.durable.pending = PendingSlots::kReconcilable;
  if (choices.Percent(boosted ? kBoostedNoStorePercent : 10)) scenario.durable.execution = false;
  std::map<std::string, ErrorHandling> drawn;  // the same handling in every plan that has the action
  for (const ActionSpec& action : scenario.actions) {
    if (action.on_error.kind == OnError::kRetry || !choices.Percent(40)) continue;
    drawn[action.name] = ErrorHandling{OnError::kContinue, 0, choices.Range(-3, 50)};
  }
  auto apply = [&drawn](std::vector<ActionSpec>& actions) {
    for (ActionSpec& action : actions) {
      auto it = drawn.find(action.name);
      if (it != drawn.end() && action.on_error.kind != OnError::kRetry) action.on_error = it->second;
    }
  };
  apply(scenario.actions);
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) apply(attempt.plan->actions);
  }
  // Drawn last, so that the draws above keep what they drew before it.
  if (choices.Percent(boosted ? kBoostedSyncFallbackPercent : 20)) scenario.durable.async_executor = false;
  // The worker-pool engine replaces the sync fallback (the parser refuses
  // both): drawn for 30% of the others, after every draw above.
  if (scenario.durable.async_executor && choices.Percent(30)) scenario.durable.engine = ExecutionEngine::kWorkerPool;
}

// Features drawn together (issue 32): each late gate opens on its own for
// 8-30% of the seeds, so two rare ones meet in 1-3% of the seeds and what
// they draw within in fewer. For kForcedGatesPercent of the seeds two
// distinct gates are forced open together, and each other gate with
// kExtraGatePercent, drawn from the seed's own pair stream; those seeds are
// boosted (kBoostedPercent). The other seeds keep the scenario they had.
std::vector<LateGate> DrawForcedGates(Choices& choices) {
  if (!choices.Percent(kForcedGatesPercent)) return {};
  const std::vector<LateGate>& gates = AllOf<LateGate>();
  const size_t first = choices.Below(gates.size());
  const size_t second = (first + 1 + choices.Below(gates.size() - 1)) % gates.size();
  DURASIM_CHECK_NE(first, second);
  std::vector<LateGate> forced = {gates[first], gates[second]};
  for (size_t g = 0; g < gates.size(); ++g) {
    if (g != first && g != second && choices.Percent(kExtraGatePercent)) forced.push_back(gates[g]);
  }
  return forced;
}

// The scenario's store design and its faults: a Kafka design (kafka-rewrite
// where the seed aims at rewrite faults and the mix may draw it), then fluss
// for a third of the seeds. `store` (--store) overrides the design drawn;
// `drawable` narrows the mix (GenerateFromSeed).
void DrawDesign(Choices& choices, Scenario& scenario, std::optional<StoreDesign> store,
                const std::vector<StoreDesign>& drawable, bool rewrite_aimed) {
  const auto drawable_design = [&drawable](StoreDesign design) {
    return drawable.empty() || std::find(drawable.begin(), drawable.end(), design) != drawable.end();
  };
  rewrite_aimed = rewrite_aimed && drawable_design(StoreDesign::kKafkaRewrite);
  StoreDesign kafka = choices.Below(2) == 0 ? StoreDesign::kKafkaRewind : StoreDesign::kKafkaRewrite;
  if (rewrite_aimed) kafka = StoreDesign::kKafkaRewrite;
  scenario.store = store.value_or(kafka);
  DrawDesignFaults(choices, scenario);
  if (choices.Percent(33) && !store && drawable_design(StoreDesign::kFluss) && !rewrite_aimed) {
    scenario.store = StoreDesign::kFluss;
    DropRewriteArms(scenario);
  }
}

Generated GenerateFromSeed(uint64_t seed, std::optional<StoreDesign> given,
                           const std::vector<StoreDesign>& drawable) {
  // A mutant of one design runs only on it, as --store would.
  const bool one_drawable = !given && drawable.size() == 1;
  const std::optional<StoreDesign> store = one_drawable ? drawable.front() : given;
  PrngChoices choices(seed);
  Generated generated;
  generated.swarm = DrawSwarm(choices);
  PrngChoices pair_choices(seed ^ kPairStream);
  generated.swarm.forced_gates = DrawForcedGates(pair_choices);
  const bool boosted = !generated.swarm.forced_gates.empty();
  if (boosted) {
    // More faulty attempts, each more often faulty: more places for the
    // forced features to meet (and so more draws of the seed's stream than
    // an ordinary seed of the same swarm takes).
    generated.swarm.faulty_attempts_max = kBoostedFaultyAttemptsMax;
    generated.swarm.fault_percent = std::max(generated.swarm.fault_percent, kBoostedFaultPercentMin);
  }
  PrngChoices aim_choices(seed ^ kAimStream);
  if (boosted) generated.swarm.aimed_points = DrawAimedPoints(aim_choices);
  Aims aims(seed ^ kAimStream, generated.swarm.aimed_points);
  generated.scenario = GenerateScenario(choices, generated.swarm);
  // Every design alike: the same workloads and faults check each. The
  // design is drawn even when it is given, so that a seed's design faults
  // are the same draws with or without --store. It is drawn in two steps: a
  // Kafka design and its faults, then fluss for a third of the seeds, so
  // that a seed that draws a Kafka design means what it meant before fluss
  // existed (the seeds the docs and snapshots quote). The aimed points'
  // log steps and arms come first, alike for every design.
  aims.Apply(AimStage::kLog, generated.scenario);
  DrawDesign(choices, generated.scenario, store, drawable, aims.Has(AimedPoint::kRewriteFaults));
  aims.Apply(AimStage::kDesign, generated.scenario);
  // Before the design's fit, so that every design gets the same draws.
  PrngChoices cleanup_choices(seed ^ kCleanupStream);
  DrawCleanupUnderCompaction(cleanup_choices, generated.scenario, aims.Has(AimedPoint::kCleanupUnderCompaction));
  PrngChoices migration_choices(seed ^ kMigrationStream);
  DrawTombstoneMigration(migration_choices, generated.scenario, boosted, aims.Has(AimedPoint::kLegacyMarkers));
  PrngChoices rebuild_step_choices(seed ^ kRebuildStepStream);
  DrawStepsDuringRebuild(rebuild_step_choices, generated.scenario, boosted);
  PrngChoices marker_choices(seed ^ kMarkersStream);
  DrawHandMadeMarkers(marker_choices, generated.scenario, boosted);
  aims.Apply(AimStage::kMarkers, generated.scenario);
  // What the design cannot run is dropped (fluss: the log operations a
  // Fluss table has no counterpart of, and tombstones).
  FitToDesign(generated.scenario);
  PrngChoices key_shape_choices(seed ^ kKeyShapeStream);
  DrawKeyShape(key_shape_choices, generated.scenario, boosted);
  PrngChoices typed_key_choices(seed ^ kTypedKeyStream);
  DrawTypedKeys(typed_key_choices, generated.scenario, boosted);
  PrngChoices reconcile_choices(seed ^ kReconcileStream);
  DrawReconcilers(reconcile_choices, generated.scenario, boosted);
  PrngChoices mode_choices(seed ^ kModesStream);
  DrawRuntimeModes(mode_choices, generated.scenario, boosted);
  PrngChoices store_option_choices(seed ^ kStoreOptionsStream);
  DrawStoreOptions(store_option_choices, generated.scenario, boosted);
  aims.Apply(AimStage::kRuntime, generated.scenario);
  PrngChoices get_choices(seed ^ kGetEvictionStream);
  DrawGetEviction(get_choices, generated.scenario);
  // The real get() evicts states a replay needs elsewhere (docs/findings.md,
  // finding 1): a sweep of correct code would fail.
  DURASIM_CHECK(generated.scenario.store_options.get == GetEviction::kLookup ||
                OneStatePerInputOfOneKey(generated.scenario));
  generated.scenario.seed = seed;
  generated.scenario.name = fmt::format("seed_{}", seed);
  return generated;
}

}  // namespace durasim
