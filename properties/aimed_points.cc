// Aimed points implementation.
#include "properties/aimed_points.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "model/fault_catalog.h"
#include "model/reconcile.h"
#include "model/scenario_limits.h"
#include "model/store_designs.h"
#include "properties/step_builders.h"
#include "store/check.h"
#include "store/recovery_marker.h"

namespace durasim {
namespace {

// How often a boosted seed aims at each point: most at 40% (two given
// points together in 16%); the rare fault kinds, which only add arms, at
// 80%; the cleanup chain, whose tombstone points meet the most other
// points' failures and crashes, at 55%; one key with the real get(), which
// keeps one action alone, at 45%.
constexpr uint64_t kAimedPointPercent = 40;
constexpr uint64_t kRareFaultsPercent = 80;
constexpr uint64_t kCleanupPercent = 55;
constexpr uint64_t kOneKeyGetPercent = 45;

bool HasStep(const AttemptSpec& attempt, AttemptStep::Kind kind) {
  return std::any_of(attempt.steps.begin(), attempt.steps.end(),
                     [kind](const AttemptStep& step) { return step.kind == kind; });
}

// The faulty attempts (all but the healed last) for which `fits` holds.
template <typename Fits>
std::vector<size_t> FaultyAttempts(const Scenario& scenario, Fits fits) {
  std::vector<size_t> found;
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    if (fits(a, scenario.attempts[a])) found.push_back(a);
  }
  return found;
}

// Whether an action the runs can take, of the scenario or of a plan, is one
// `fits` holds for. `first_only`: the first action alone (each plan's of
// its name), which is all a seed aiming at one_key_get keeps (OneKeyWithGet).
template <typename Fits>
bool AnyActionWhere(const Scenario& scenario, bool first_only, Fits fits) {
  if (scenario.actions.empty()) return false;
  const std::string& first = scenario.actions.front().name;
  const auto counted = [&](const ActionSpec& action) { return (!first_only || action.name == first) && fits(action); };
  if (std::any_of(scenario.actions.begin(), scenario.actions.end(), counted)) return true;
  return std::any_of(scenario.attempts.begin(), scenario.attempts.end(), [&counted](const AttemptSpec& attempt) {
    return attempt.plan && std::any_of(attempt.plan->actions.begin(), attempt.plan->actions.end(), counted);
  });
}

size_t CallsOf(const ActionSpec& action) {
  return static_cast<size_t>(std::count_if(action.steps.begin(), action.steps.end(),
                                           [](const ActionStep& step) { return step.kind == ActionStep::Kind::kCall; }));
}

bool HasAsyncCall(const ActionSpec& action) {
  return std::any_of(action.steps.begin(), action.steps.end(), [](const ActionStep& step) {
    return step.kind == ActionStep::Kind::kCall && step.mode == CallMode::kAsync;
  });
}

// Whether an armed fault of `kind` can meet its point in some run of the
// scenario's actions: an async call in flight needs an async call, a crash
// between calls an action with two, a cancelled call one call.
bool ActionsCanMeet(const Scenario& scenario, FaultKind kind, bool first_only) {
  switch (kind) {
    case FaultKind::kCrashAsyncInFlight: return AnyActionWhere(scenario, first_only, HasAsyncCall);
    case FaultKind::kCrashBetweenCalls:
      return AnyActionWhere(scenario, first_only, [](const ActionSpec& action) { return CallsOf(action) >= 2; });
    case FaultKind::kCancelCall:
      return AnyActionWhere(scenario, first_only, [](const ActionSpec& action) { return CallsOf(action) >= 1; });
    default: return true;
  }
}

bool AnyAttemptArms(const Scenario& scenario, FaultKind kind) {
  return std::any_of(scenario.attempts.begin(), scenario.attempts.end(), [kind](const AttemptSpec& attempt) {
    return std::any_of(attempt.steps.begin(), attempt.steps.end(), [kind](const AttemptStep& step) {
      return step.kind == AttemptStep::Kind::kArm && step.fault == kind;
    });
  });
}

// Just after the attempt's last checkpoint completion, or at its end.
size_t AfterLastCompletion(const AttemptSpec& attempt) {
  for (size_t i = attempt.steps.size(); i > 0; --i) {
    if (attempt.steps[i - 1].kind == AttemptStep::Kind::kComplete) return i;
  }
  return attempt.steps.size();
}

// A first attempt that crashes while a call's PENDING slot is saved and its
// result is not (the put of the slot persisted and the job died, or an
// async call in flight; now and then a crash between two calls instead,
// after the first one's result is saved): it takes and completes the job's
// opening checkpoint, reads some inputs and runs until the fault. The
// attempt that was first restores that checkpoint instead of taking it and
// reads the same inputs first, so that its replay finds the slot PENDING
// and asks the call's reconciler; its other steps stay. Drawn at kMarkers,
// after every draw that shapes the attempts: the crashing attempt holds
// nothing else, and its arm counts no point another draw put before it.
void CrashWithACallInFlight(Choices& choices, Scenario& scenario, bool first_action_only) {
  AttemptSpec& was_first = scenario.attempts.front();
  DURASIM_CHECK(!was_first.restore.has_value());  // the job's first attempt starts fresh
  const auto opening = [](const AttemptStep& step) {
    return (step.kind == AttemptStep::Kind::kCheckpoint || step.kind == AttemptStep::Kind::kComplete) &&
           step.checkpoint == "cp0";
  };
  std::vector<AttemptStep> first_steps;
  std::copy_if(was_first.steps.begin(), was_first.steps.end(), std::back_inserter(first_steps), opening);
  DURASIM_CHECK_EQ(first_steps.size(), 2u);  // AttemptBuilder: cp0, taken and completed
  std::erase_if(was_first.steps, opening);
  was_first.restore = kRestoreLatest;
  // Mostly the put of a PENDING slot persisted and the job died (every
  // call writes one first); else an async call in flight (where an action
  // makes one: half of the seeds with the sync fallback get an executor
  // back, ExecutorForAsyncArms), or
  // a crash between two calls (where an action makes two: the first's
  // result is saved, nothing is reconciled, but the crash kind meets the
  // reconcilers' other points).
  AttemptStep arm = Step(AttemptStep::Kind::kArm);
  const uint64_t async = ActionsCanMeet(scenario, FaultKind::kCrashAsyncInFlight, first_action_only) ? 1 : 0;
  const uint64_t between = ActionsCanMeet(scenario, FaultKind::kCrashBetweenCalls, first_action_only) ? 1 : 0;
  switch (choices.Weighted({3, async, between})) {
    case 0:
      arm.fault = FaultKind::kCrashAfterPutPersisted;
      arm.select.put = PutPoint::kPending;
      break;
    case 1: arm.fault = FaultKind::kCrashAsyncInFlight; break;
    default: arm.fault = FaultKind::kCrashBetweenCalls; break;
  }
  arm.nth = choices.Range(1, 2);
  AttemptStep read = Step(AttemptStep::Kind::kRead);
  read.count = choices.Range(1, std::max<int64_t>(static_cast<int64_t>(scenario.inputs.size()), 1));
  first_steps.insert(first_steps.end(), {arm, read, Step(AttemptStep::Kind::kRun)});
  // The restoring attempt reads those inputs again first (its replay).
  was_first.steps.insert(was_first.steps.begin(), read);
  AttemptSpec crashing;
  crashing.steps = std::move(first_steps);
  scenario.attempts.insert(scenario.attempts.begin(), crashing);
  // A call whose argument carries the attempt number is another call after
  // the restore: the saved slots are discarded, none is reconciled. 40%
  // of such seeds keep their arguments across restores (the others meet a
  // saved call that is not the call at its index).
  if (!choices.Percent(40)) return;
  auto same_argument = [](std::vector<ActionSpec>& actions) {
    for (ActionSpec& action : actions) {
      for (ActionStep& step : action.steps) step.arg = ArgSource::kAcc;
    }
  };
  same_argument(scenario.actions);
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) same_argument(attempt.plan->actions);
  }
}

// An `unknown` answer fails its call, and an action that fails the job over
// on a failure (`on_error: fail`, the default) fails every later attempt
// too: nothing after it is met. Most such actions of an aimed seed catch
// their failures instead (retry, ignore or continue), alike in every plan.
void CatchMostFailures(Choices& choices, Scenario& scenario) {
  std::vector<std::pair<std::string, ErrorHandling>> drawn;
  for (const ActionSpec& action : scenario.actions) {
    if (action.on_error.kind != OnError::kFail || !choices.Percent(70)) continue;
    switch (choices.Below(3)) {
      case 0: drawn.emplace_back(action.name, ErrorHandling{OnError::kRetry, choices.Range(1, 2)}); break;
      case 1: drawn.emplace_back(action.name, ErrorHandling{OnError::kIgnore, 0}); break;
      default: drawn.emplace_back(action.name, ErrorHandling{OnError::kContinue, 0, choices.Range(-3, 50)}); break;
    }
  }
  auto apply = [&drawn](std::vector<ActionSpec>& actions) {
    for (ActionSpec& action : actions) {
      for (const auto& [name, handling] : drawn) {
        if (action.name == name && action.on_error.kind == OnError::kFail) action.on_error = handling;
      }
    }
  };
  apply(scenario.actions);
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) apply(attempt.plan->actions);
  }
}

// Every supplier, in every plan that declares it, gets the three answers
// that say something (not `truth`) in a drawn order, `done` first least
// often (a `truth` elsewhere says it most): the first asking gets the
// first, and a run that asks again meets another.
void ScriptReconcilers(Choices& choices, Scenario& scenario) {
  std::vector<std::pair<std::string, std::vector<ReconcileAnswer>>> drawn;
  for (const SupplierSpec& supplier : scenario.suppliers) {
    std::vector<ReconcileAnswer> answers = {ReconcileAnswer::kUnknown, ReconcileAnswer::kNotDone,
                                            ReconcileAnswer::kDone};
    std::swap(answers[0], answers[choices.Weighted({3, 3, 2})]);
    if (choices.Percent(50)) std::swap(answers[1], answers[2]);
    DURASIM_CHECK(std::find(answers.begin(), answers.end(), ReconcileAnswer::kTruth) == answers.end());
    drawn.emplace_back(supplier.name, std::move(answers));
  }
  auto apply = [&drawn](std::vector<SupplierSpec>& suppliers) {
    for (SupplierSpec& supplier : suppliers) {
      for (const auto& [name, answers] : drawn) {
        if (supplier.name == name) supplier.reconcile = answers;
      }
    }
  };
  apply(scenario.suppliers);
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) apply(attempt.plan->suppliers);
  }
  CatchMostFailures(choices, scenario);
  scenario.durable.execution = true;  // a reconciler is asked about a slot a store saved
}

constexpr const char* kMidRun = "cp_mid_run";

// Mostly a refused put or a lost acknowledgement at a rewrite: the rewrite
// fails and the checkpoint is declined (rewrite_failed); now and then a crash.
AttemptStep RewriteArm(Choices& choices) {
  static const std::vector<FaultKind> kKinds = {FaultKind::kRejectPut, FaultKind::kLoseAck,
                                                FaultKind::kCrashAfterPutPersisted, FaultKind::kCrashAfterPutAcked};
  static const std::vector<uint64_t> kWeights = {4, 4, 1, 1};
  AttemptStep arm = Step(AttemptStep::Kind::kArm);
  arm.fault = kKinds[choices.Weighted(kWeights)];
  arm.select.put = PutPoint::kRewrite;
  arm.nth = 1;
  return arm;
}

// A checkpoint taken while actions are in flight (kafka-rewrite rewrites
// their unfinished states at it), after the job's opening one: some
// inputs are read, the job runs a few milliseconds, the checkpoint is taken
// and completed. Every design gets it (ArmRewriteFaults aims at it on
// kafka-rewrite).
void CheckpointMidRun(Choices& choices, Scenario& scenario) {
  AttemptStep read = Step(AttemptStep::Kind::kRead);
  read.count = choices.Range(1, std::max<int64_t>(static_cast<int64_t>(scenario.inputs.size()), 1));
  AttemptStep run = Step(AttemptStep::Kind::kRunFor);
  run.duration_ms = choices.Range(1, 6);  // most often an action is under way
  const std::vector<AttemptStep> mid_run = {read, run, CheckpointStep(AttemptStep::Kind::kCheckpoint, kMidRun),
                                            CheckpointStep(AttemptStep::Kind::kComplete, kMidRun)};
  std::vector<AttemptStep>& first = scenario.attempts.front().steps;
  first.insert(first.begin() + AfterFirstCompletion(first), mid_run.begin(), mid_run.end());
}

// On kafka-rewrite, a fault at the rewrites of the checkpoint taken mid-run
// (CheckpointMidRun) and of a checkpoint of every other faulty attempt that
// takes one.
void ArmRewriteFaults(Choices& choices, Scenario& scenario) {
  if (scenario.store != StoreDesign::kKafkaRewrite) return;
  std::vector<AttemptStep>& first = scenario.attempts.front().steps;
  const auto mid_run = std::find_if(first.begin(), first.end(), [](const AttemptStep& step) {
    return step.kind == AttemptStep::Kind::kCheckpoint && step.checkpoint == kMidRun;
  });
  DURASIM_CHECK(mid_run != first.end());  // CheckpointMidRun put it there
  first.insert(mid_run, RewriteArm(choices));
  for (size_t a = 1; a + 1 < scenario.attempts.size(); ++a) {
    std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
    std::vector<size_t> checkpoints;
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].kind == AttemptStep::Kind::kCheckpoint) checkpoints.push_back(i);
    }
    if (checkpoints.empty()) continue;
    const size_t at = checkpoints[choices.Below(checkpoints.size())];
    DURASIM_CHECK(steps[at].kind == AttemptStep::Kind::kCheckpoint);  // armed just ahead of it
    steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), RewriteArm(choices));
  }
}

// kafka-rewrite rewrites only with a store: the aimed seeds run with
// durable execution on, on every design alike.
void RewritableRuntime(Scenario& scenario) { scenario.durable.execution = true; }

// Tombstones that a compaction may remove; the generator's cleanup stream
// then always compacts past the horizon (DrawCleanupUnderCompaction).
void EnableTombstoneRemoval(Choices& choices, Scenario& scenario) {
  scenario.log.tombstones = true;
  if (scenario.log.delete_retention_ms <= 0) scenario.log.delete_retention_ms = choices.Range(1, 40);
}

// Partitions added right after a faulty attempt's last completed
// checkpoint; the next attempt restores the latest checkpoint, taken before
// them (the store option that rejects such a restore is undone for most at
// kRuntime).
void AddPartitionsAfterCheckpoint(Choices& choices, Scenario& scenario) {
  const std::vector<size_t> candidates = FaultyAttempts(scenario, [&scenario](size_t a, const AttemptSpec& attempt) {
    return HasStep(attempt, AttemptStep::Kind::kComplete) && scenario.attempts[a + 1].restore.has_value();
  });
  const int64_t room = limits::kPartitionsMax - scenario.PartitionsMax();
  if (candidates.empty() || room < 1) return;
  const size_t a = candidates[choices.Below(candidates.size())];
  AttemptStep added = Step(AttemptStep::Kind::kAddPartitions);
  added.count = choices.Range(1, std::min<int64_t>(2, room));
  DURASIM_CHECK_LE(scenario.PartitionsMax() + added.count, limits::kPartitionsMax);
  std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(AfterLastCompletion(scenario.attempts[a])), added);
  scenario.attempts[a + 1].restore = kRestoreLatest;
}

// One re-created topic, in a faulty attempt past the first where there is
// one (so that restores before it, which may read a version-1 marker, meet
// it), never before the first attempt's opening checkpoint completes.
void RecreateTopic(Choices& choices, Scenario& scenario) {
  const bool recreated = std::any_of(scenario.attempts.begin(), scenario.attempts.end(), [](const AttemptSpec& a) {
    return HasStep(a, AttemptStep::Kind::kRecreateTopic);
  });
  if (recreated || scenario.attempts.size() < 2) return;
  const size_t faulty = scenario.attempts.size() - 1;
  const size_t a = faulty > 1 && choices.Percent(70) ? static_cast<size_t>(choices.Range(1, static_cast<int64_t>(faulty) - 1))
                                                     : choices.Below(faulty);
  DURASIM_CHECK_LT(a, faulty);  // never the healed last attempt
  std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
  const size_t at = NotBeforeOpening(scenario.attempts[a], choices.Below(steps.size() + 1));
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), Step(AttemptStep::Kind::kRecreateTopic));
}

// A store that reads a version-1 marker holds no boundaries, so it is one
// without tombstones: the log's are turned off, the faults aimed at
// tombstones go (the generator then draws no tombstone migration either).
void NoTombstones(Scenario& scenario) {
  scenario.log.tombstones = false;
  scenario.log.delete_retention_ms = 0;
  for (AttemptSpec& attempt : scenario.attempts) {
    attempt.tombstones.reset();
    std::erase_if(attempt.steps, [](const AttemptStep& step) {
      return step.kind == AttemptStep::Kind::kArm &&
             (step.select.put == PutPoint::kTombstone || step.select.put == PutPoint::kCleanup);
    });
  }
  DURASIM_CHECK(!scenario.TombstonesEver());
}

// Whether `kind`'s points are checkpoints (the fault catalog's target).
bool AtACheckpoint(FaultKind kind) { return FaultEntryOf(kind)->target == ArmTarget::kCheckpoint; }

// An arm at a checkpoint's edges in `steps`, from `from`: just before the
// first checkpoint from there (one of its own where none comes, never
// completed: before the first run, where inputs read are queued, or at the
// end; no draw, so that every design, whose faults add arms, gets it at the
// same place), its nth past the checkpoints before it. A fault
// counts only taken checkpoints (a declined one is no snapshot): the first
// from `from` has none of the attempt's own before it but a new job's
// opening one, which is taken. A barrier is met once per subtask: past the
// first checkpoint, the arm counts subtask 0's.
void ArmAtACheckpoint(AttemptStep arm, std::vector<AttemptStep>& steps, size_t from, const std::string& own_id) {
  const auto rest = steps.begin() + static_cast<std::ptrdiff_t>(from);
  auto at = std::find_if(rest, steps.end(), [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kCheckpoint; });
  if (at == steps.end()) {
    const auto run = std::find_if(rest, steps.end(), [](const AttemptStep& step) {
      return step.kind == AttemptStep::Kind::kRun || step.kind == AttemptStep::Kind::kRunFor;
    });
    at = steps.insert(run, CheckpointStep(AttemptStep::Kind::kCheckpoint, own_id));
  }
  const int64_t before = std::count_if(steps.begin(), at, [](const AttemptStep& step) { return step.kind == AttemptStep::Kind::kCheckpoint; });
  arm.nth = before + 1;
  if (arm.fault == FaultKind::kCrashBeforeCheckpoint && before > 0) arm.subtask = 0;
  steps.insert(at, arm);
}

// Arms `kind` in attempt `a` where it meets its point soonest. A fault's
// points are counted from its attempt's start (FaultPlan::Arm), so the arm
// goes where the attempt has passed none yet: one at a checkpoint's edges
// just before the attempt's first checkpoint (ArmAtACheckpoint); any other
// first (after a new job's opening checkpoint), with a small nth, a third
// of them aimed at one input's key (fault_selected, which every mode of the
// runtime meets, a store or none).
void ArmSoonest(Choices& choices, FaultKind kind, Scenario& scenario, size_t a) {
  std::vector<AttemptStep>& steps = scenario.attempts[a].steps;
  AttemptStep arm = Step(AttemptStep::Kind::kArm);
  arm.fault = kind;
  const size_t from = NotBeforeOpening(scenario.attempts[a], 0);
  if (AtACheckpoint(kind)) {
    ArmAtACheckpoint(arm, steps, from, "cp_edge_" + std::to_string(a));
    return;
  }
  arm.nth = choices.Range(1, 2);
  if (!scenario.inputs.empty() && choices.Percent(30)) {
    arm.select.key = scenario.inputs[choices.Below(scenario.inputs.size())].key;
  }
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(from), arm);
}

// Whether attempt `steps` hold a checkpoint another aimed point put after
// the opening one (the cleanup chain's, the one taken mid-run), with the
// reads and runs before it: an arm there would count their points.
bool HoldsAimedWork(const std::vector<AttemptStep>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const AttemptStep& step) {
    return step.kind == AttemptStep::Kind::kCheckpoint && (step.checkpoint == kMidRun || step.checkpoint == kCleanupCheckpoint);
  });
}

// The fault kinds whose points are met least (an async call in flight, two
// calls of one action, a put or a call cancelled, a checkpoint's edges):
// one the actions can meet (ActionsCanMeet) armed where it meets its point
// soonest (ArmSoonest), in each faulty attempt but those that hold another
// aimed point's work (HoldsAimedWork) and the reconcile aim's crashing
// attempt (`skip_first`). Drawn at kMarkers, after every draw that puts
// steps into the attempts.
void ArmRareFaults(Choices& choices, Scenario& scenario, bool skip_first, bool first_action_only) {
  static const std::vector<FaultKind> kRare = {FaultKind::kCrashAsyncInFlight,  FaultKind::kCrashBetweenCalls,
                                               FaultKind::kCancelPut,           FaultKind::kCancelCall,
                                               FaultKind::kCrashBeforeCheckpoint, FaultKind::kCrashAfterCheckpoint};
  std::vector<FaultKind> fitting;
  std::copy_if(kRare.begin(), kRare.end(), std::back_inserter(fitting),
               [&](FaultKind kind) { return ActionsCanMeet(scenario, kind, first_action_only); });
  DURASIM_CHECK(!fitting.empty());  // a put is always cancellable, a checkpoint always taken
  for (size_t a = skip_first ? 1 : 0; a + 1 < scenario.attempts.size(); ++a) {
    if (HoldsAimedWork(scenario.attempts[a].steps)) continue;
    ArmSoonest(choices, fitting[choices.Below(fitting.size())], scenario, a);
  }
}

// An armed async call in flight meets its point only where the runtime has
// an executor: half the seeds that aim one and drew the sync fallback get
// one (the rest keep it, whose points meet the aimed others).
void ExecutorForAsyncArms(Choices& choices, Scenario& scenario) {
  if (scenario.durable.async_executor || !AnyAttemptArms(scenario, FaultKind::kCrashAsyncInFlight)) return;
  if (choices.Percent(50)) scenario.durable.async_executor = true;
}

// Most restores that can read a version-1 marker (no tombstones ever, no
// topic re-created before) get one, alone or after a current marker at the
// log's end (the smaller offsets win).
void LegacyMarkers(Choices& choices, Scenario& scenario) {
  if (scenario.TombstonesEver()) return;
  HandMadeMarkerSpec at_end;
  at_end.offsets = HandMadeMarkerSpec::Offsets::kLogEnd;
  HandMadeMarkerSpec legacy;
  legacy.version = RecoveryMarker::kLegacyVersion;
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.restore && choices.Percent(80)) {
      attempt.markers = choices.Percent(50) ? std::vector<HandMadeMarkerSpec>{legacy}
                                            : std::vector<HandMadeMarkerSpec>{at_end, legacy};
    }
    if (HasStep(attempt, AttemptStep::Kind::kRecreateTopic)) return;  // later restores cannot
  }
}

// Makes an action the one action, on the input alone, emitting nothing
// (nothing would handle it) and ending with an output if it has none (alike
// in every plan: the plans keep their answer).
void OnlyOnInput(ActionSpec& action) {
  action.on = {kInputEventType};
  std::erase_if(action.steps, [](const ActionStep& step) { return step.kind == ActionStep::Kind::kEmit; });
  if (std::none_of(action.steps.begin(), action.steps.end(),
                   [](const ActionStep& step) { return step.kind == ActionStep::Kind::kOutput; })) {
    ActionStep output;
    output.kind = ActionStep::Kind::kOutput;
    action.steps.push_back(output);
  }
}

// One key, one action on the input (in every plan), so that every input
// leaves one state and the real get() may be on (the generator's
// OneStatePerInputOfOneKey); a recall of a slot the action no longer
// writes goes.
void OneKeyWithGet(Scenario& scenario) {
  if (scenario.inputs.empty()) return;
  scenario.durable.execution = true;  // the get() is a store's
  const std::string key = scenario.inputs.front().key;
  for (InputSpec& input : scenario.inputs) input.key = key;
  if (scenario.inputs.size() < 2) {
    InputSpec second = scenario.inputs.front();
    second.value = (second.value + 1) % 100;
    scenario.inputs.push_back(second);
  }
  const std::string name = scenario.actions.front().name;
  auto keep_one = [&name, &scenario](std::vector<ActionSpec>& actions) {
    const auto it = std::find_if(actions.begin(), actions.end(), [&](const ActionSpec& a) { return a.name == name; });
    ActionSpec kept = it != actions.end() ? *it : scenario.actions.front();
    OnlyOnInput(kept);
    actions = {kept};
  };
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) keep_one(attempt.plan->actions);
  }
  keep_one(scenario.actions);
  const std::set<std::string> written = scenario.MemorySlotsWritten();
  auto drop_unwritten_recalls = [&written](ActionSpec& action) {
    std::erase_if(action.steps, [&](const ActionStep& step) {
      return step.kind == ActionStep::Kind::kRecall && !written.contains(step.name);
    });
    if (action.steps.empty()) OnlyOnInput(action);
  };
  drop_unwritten_recalls(scenario.actions.front());
  for (AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) drop_unwritten_recalls(attempt.plan->actions.front());
    for (AttemptStep& step : attempt.steps) {
      if (step.select.key) step.select.key = key;
      if (step.select.action) step.select.action = name;
    }
  }
  DURASIM_CHECK(scenario.actions.size() == 1 && scenario.inputs.size() >= 2);
  scenario.store_options.get = GetEviction::kOnDivergence;
}

void Reshape(AimedPoint point, AimStage stage, Choices& choices, Scenario& scenario, const Aims& aims) {
  const bool one_action = aims.Has(AimedPoint::kOneKeyGet);  // OneKeyWithGet keeps the first alone
  switch (point) {
    case AimedPoint::kReconcileInFlight:
      // Last among the draws that shape the attempts, so that its crashing
      // attempt is its own: what they insert after the opening checkpoint
      // (a checkpoint mid-run, the cleanup chain) goes to the attempt that
      // replays, and no point the crash counts on passes before its arm.
      if (stage == AimStage::kMarkers) CrashWithACallInFlight(choices, scenario, one_action);
      if (stage == AimStage::kRuntime) {
        ScriptReconcilers(choices, scenario);
        ExecutorForAsyncArms(choices, scenario);
      }
      return;
    case AimedPoint::kOneKeyGet:
      if (stage == AimStage::kRuntime) OneKeyWithGet(scenario);
      return;
    case AimedPoint::kLegacyMarkers:
      if (stage == AimStage::kLog) NoTombstones(scenario);
      if (stage == AimStage::kMarkers) LegacyMarkers(choices, scenario);
      return;
    case AimedPoint::kRewriteFaults:
      if (stage == AimStage::kLog) CheckpointMidRun(choices, scenario);
      if (stage == AimStage::kDesign) ArmRewriteFaults(choices, scenario);
      if (stage == AimStage::kRuntime) RewritableRuntime(scenario);
      return;
    case AimedPoint::kCleanupUnderCompaction:
      if (stage == AimStage::kLog) EnableTombstoneRemoval(choices, scenario);
      return;
    case AimedPoint::kAddedPartitionsRestored:
      if (stage == AimStage::kLog) AddPartitionsAfterCheckpoint(choices, scenario);
      // Mostly restored; else the store option drawn stays (a rejected restore).
      if (stage == AimStage::kRuntime && choices.Percent(70)) {
        scenario.store_options.added_partitions = AddedPartitions::kReadFromStart;
      }
      return;
    case AimedPoint::kRecreateTopic:
      if (stage == AimStage::kLog) RecreateTopic(choices, scenario);
      return;
    case AimedPoint::kRareFaults:
      // After the reconcile aim's crashing attempt (points are applied in
      // AimedPoint order), which gets none.
      if (stage == AimStage::kMarkers) {
        ArmRareFaults(choices, scenario, aims.Has(AimedPoint::kReconcileInFlight), one_action);
      }
      if (stage == AimStage::kRuntime) ExecutorForAsyncArms(choices, scenario);
      return;
  }
}

}  // namespace

std::optional<EnumInfo> EnumInfoOf(AimedPoint point) {
  switch (point) {
    case AimedPoint::kReconcileInFlight:
      return EnumInfo{"reconcile_in_flight", "scripted reconcilers and a crash with a call's PENDING slot saved"};
    case AimedPoint::kOneKeyGet: return EnumInfo{"one_key_get", "one key, one action on the input, the real get()"};
    case AimedPoint::kLegacyMarkers: return EnumInfo{"legacy_markers", "version-1 markers where a restore can read one"};
    case AimedPoint::kRewriteFaults:
      return EnumInfo{"rewrite_faults", "a checkpoint mid-run; on kafka-rewrite, faults at its rewrites and others'"};
    case AimedPoint::kCleanupUnderCompaction:
      return EnumInfo{"cleanup_under_compaction", "tombstones a compaction removes, the cleanup chain"};
    case AimedPoint::kAddedPartitionsRestored:
      return EnumInfo{"added_partitions_restored", "partitions added after a completed checkpoint, then restored"};
    case AimedPoint::kRecreateTopic: return EnumInfo{"recreate_topic", "the topic re-created in a faulty attempt"};
    case AimedPoint::kRareFaults: return EnumInfo{"rare_faults", "each faulty attempt arms a fault whose point is met least"};
  }
  return std::nullopt;
}

uint64_t AimPercent(AimedPoint point) {
  switch (point) {
    case AimedPoint::kRareFaults: return kRareFaultsPercent;
    case AimedPoint::kCleanupUnderCompaction: return kCleanupPercent;
    case AimedPoint::kOneKeyGet: return kOneKeyGetPercent;
    default: return kAimedPointPercent;
  }
}

std::vector<AimedPoint> DrawAimedPoints(Choices& choices) {
  std::vector<AimedPoint> aimed;
  for (AimedPoint point : AllOf<AimedPoint>()) {
    if (choices.Percent(AimPercent(point))) aimed.push_back(point);
  }
  // A version-1 marker is read only by a store without tombstones, and a
  // cleanup under compaction needs them: where both were drawn, one of them
  // goes (a draw; their points cannot meet, pair_coverage.cc), so that a
  // seed aims only at what it can reach.
  const auto has = [&aimed](AimedPoint point) { return std::find(aimed.begin(), aimed.end(), point) != aimed.end(); };
  if (has(AimedPoint::kLegacyMarkers) && has(AimedPoint::kCleanupUnderCompaction)) {
    std::erase(aimed, choices.Percent(50) ? AimedPoint::kLegacyMarkers : AimedPoint::kCleanupUnderCompaction);
  }
  return aimed;
}

Aims::Aims(uint64_t stream_seed, const std::vector<AimedPoint>& points) {
  for (AimedPoint point : points) {
    // Each point's own stream: the aim stream mixed with the point's index.
    const uint64_t index = static_cast<uint64_t>(point) + 1;
    points_.emplace_back(point, PrngChoices(stream_seed ^ (index * 0x9e3779b97f4a7c15ULL)));
  }
}

bool Aims::Has(AimedPoint point) const {
  return std::any_of(points_.begin(), points_.end(), [point](const auto& aimed) { return aimed.first == point; });
}

void Aims::Apply(AimStage stage, Scenario& scenario) {
  for (auto& [point, choices] : points_) Reshape(point, stage, choices, scenario, *this);
}

}  // namespace durasim
