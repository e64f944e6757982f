// FaultPlan implementation.
#include "model/fault_plan.h"

#include <algorithm>

#include "model/identity.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

FaultPlan::PointClass FaultPlan::ClassOf(FaultKind kind) {
  switch (kind) {
    case FaultKind::kRejectPut:
    case FaultKind::kLoseAck:
    case FaultKind::kCancelPut: return PointClass::kProduced;
    case FaultKind::kCrashAfterPutPersisted:
    case FaultKind::kCorruptRecord: return PointClass::kPersisted;
    case FaultKind::kCrashAfterPutAcked: return PointClass::kAcked;
    case FaultKind::kCrashBetweenCalls: return PointClass::kCallSaved;
    case FaultKind::kCrashAsyncInFlight: return PointClass::kAsyncStarted;
    case FaultKind::kCancelCall: return PointClass::kCallStarted;
    case FaultKind::kCrashBeforeCheckpoint: return PointClass::kBarrier;
    case FaultKind::kCrashAfterCheckpoint: return PointClass::kSnapshot;
  }
  DURASIM_CHECK(false);  // every kind has its class
  return PointClass::kProduced;
}

void FaultPlan::Seal() {
  DURASIM_CHECK_MSG(armed_.empty(), "a fault plan with armed faults cannot be sealed");
  sealed_ = true;
  for (std::vector<Seen>& seen : seen_) seen.clear();
}

void FaultPlan::ExpectArms(const std::vector<FaultKind>& kinds) {
  DURASIM_CHECK(!expected_ && armed_.empty() && writes_ == 0);
  DURASIM_CHECK(std::all_of(seen_.begin(), seen_.end(), [](const std::vector<Seen>& seen) { return seen.empty(); }));
  expected_ = true;
  kept_classes_.fill(false);
  for (FaultKind kind : kinds) kept_classes_[static_cast<size_t>(ClassOf(kind))] = true;
}

size_t FaultPlan::Arm(FaultKind kind, int64_t nth, std::optional<int32_t> subtask, const FaultSelector& select) {
  DURASIM_CHECK_MSG(!sealed_, "a sealed fault plan (the run without faults) arms nothing");
  DURASIM_CHECK_MSG(kept_classes_[static_cast<size_t>(ClassOf(kind))], "an arm the attempt did not announce (ExpectArms)");
  DURASIM_CHECK_GE(nth, 1);  // points are counted from 1: nth 0 would never fire
  Armed armed{kind, nth, subtask, select, std::nullopt};
  if (select.action) armed.action_hash = ActionHash(*select.action);
  // Points are counted from the attempt's start, so the ones before the arm
  // count too: an nth already passed never fires.
  const size_t index = armed_.size();
  for (const Seen& seen : seen_[static_cast<size_t>(ClassOf(kind))]) {
    if (!Counts(armed, seen.point) || ++armed.counted != nth) continue;
    // A write whose wait has not started yet can still have it cancelled.
    auto produced = produced_.find(seen.ordinal);
    if (kind == FaultKind::kCancelPut && produced != produced_.end() && !produced->second.cancel_arm) {
      produced->second.cancel_arm = index;
    }
  }
  armed_.push_back(std::move(armed));
  return index;
}

bool FaultPlan::Counts(const Armed& armed, const FaultPoint& point) {
  if (armed.fired || armed.disarmed) return false;
  // A job's point (subtask -1) counts for an arm on any subtask.
  if (armed.subtask && point.subtask >= 0 && *armed.subtask != point.subtask) return false;
  return Selects(armed.select, armed.action_hash, point);
}

void FaultPlan::DisarmAll() {
  for (Armed& armed : armed_) armed.disarmed = true;
}

FaultPlan::Due FaultPlan::Count(PointClass cls, const FaultPoint& point, int64_t ordinal) {
  Due due;
  if (sealed_) return due;  // nothing is or will be armed to count it
  if (kept_classes_[static_cast<size_t>(cls)]) seen_[static_cast<size_t>(cls)].push_back(Seen{ordinal, point});
  for (size_t i = 0; i < armed_.size(); ++i) {
    Armed& armed = armed_[i];
    if (ClassOf(armed.kind) != cls || !Counts(armed, point)) continue;
    std::optional<size_t>& first = DueOf(due, armed.kind);
    if (++armed.counted == armed.nth && !first) first = i;  // the first of its kind, in arming order
  }
  return due;
}

void FaultPlan::Fired(size_t armed, const FaultPoint& point) {
  armed_[armed].fired = true;
  DURASIM_CHECK(hooks_.fired != nullptr);
  hooks_.fired(armed, armed_[armed].kind, armed_[armed].nth, point);
}

bool FaultPlan::Fire(const Due& due, FaultKind kind, const FaultPoint& point) {
  const std::optional<size_t> armed = DueOf(due, kind);
  if (!armed) return false;
  Fired(*armed, point);
  return true;
}

void FaultPlan::Crash(PointClass cls, FaultKind kind, const FaultPoint& point, fmt::format_string<int64_t> why,
                      int64_t nth) {
  if (!Fire(Count(cls, point), kind, point)) return;
  DURASIM_CHECK(hooks_.crash != nullptr);
  hooks_.crash(fmt::vformat(why, fmt::make_format_args(nth)));
}

FaultPlan::PutFate FaultPlan::OnProduce(int64_t& ordinal, const FaultPoint& point) {
  ordinal = ++writes_;
  if (sealed_) return PutFate::kDeliver;
  // A rejection outranks a lost acknowledgement; a cancel_put whose nth
  // write this is cancels the write's wait, when it comes.
  const Due due = Count(PointClass::kProduced, point, ordinal);
  // Only a cancel_put reads it back, in OnWaitStarted.
  if (kept_classes_[static_cast<size_t>(PointClass::kProduced)]) {
    produced_[ordinal] = Produced{point, DueOf(due, FaultKind::kCancelPut)};
  }
  if (Fire(due, FaultKind::kRejectPut, point)) return PutFate::kReject;
  if (Fire(due, FaultKind::kLoseAck, point)) return PutFate::kLoseAck;
  return PutFate::kDeliver;
}

void FaultPlan::OnPersisted(int32_t partition, int64_t offset, const FaultPoint& point) {
  DURASIM_CHECK(partition >= 0 && offset >= 0);  // a position the log holds
  const int64_t persisted = ++persisted_;
  const Due due = Count(PointClass::kPersisted, point);
  if (Fire(due, FaultKind::kCorruptRecord, point)) hooks_.corrupt(partition, offset);
  if (Fire(due, FaultKind::kCrashAfterPutPersisted, point)) {
    hooks_.crash(fmt::format("crash after put {} was persisted", persisted));
  }
}

void FaultPlan::OnAcked(const FaultPoint& point) {
  Crash(PointClass::kAcked, FaultKind::kCrashAfterPutAcked, point, "crash after put {} was acknowledged", ++acked_);
}

void FaultPlan::OnWaitStarted(int64_t ordinal) {
  // No cancel_put is or will be armed for it.
  if (sealed_ || !kept_classes_[static_cast<size_t>(PointClass::kProduced)]) return;
  // A wait is for a write produced in this attempt, and comes once.
  auto produced = produced_.find(ordinal);
  DURASIM_CHECK(produced != produced_.end());
  const std::optional<size_t> cancel = produced->second.cancel_arm;
  const FaultPoint point = produced->second.point;
  produced_.erase(produced);
  if (!cancel || armed_[*cancel].fired || armed_[*cancel].disarmed) return;
  Fired(*cancel, point);
  hooks_.cancel_wait(point);
}

void FaultPlan::OnCallResultSaved(bool more_calls_follow, const FaultPoint& call) {
  if (!more_calls_follow) return;  // only points between two calls count
  Crash(PointClass::kCallSaved, FaultKind::kCrashBetweenCalls, call,
        "crash after durable call {} was saved, before the next call", ++calls_saved_);
}

void FaultPlan::OnAsyncCallStarted(const FaultPoint& call) {
  Crash(PointClass::kAsyncStarted, FaultKind::kCrashAsyncInFlight, call, "crash while async call {} is in flight",
        ++async_started_);
}

bool FaultPlan::OnCallStarted(const FaultPoint& call) {
  return Fire(Count(PointClass::kCallStarted, call), FaultKind::kCancelCall, call);
}

bool FaultPlan::OnCheckpointBarrier(int subtask) {
  FaultPoint point;
  point.subtask = subtask;
  ++barriers_;
  if (!Fire(Count(PointClass::kBarrier, point), FaultKind::kCrashBeforeCheckpoint, point)) return false;
  hooks_.crash(fmt::format("crash as checkpoint barrier {} arrives", barriers_));
  return true;
}

void FaultPlan::OnCheckpointTaken() {
  Crash(PointClass::kSnapshot, FaultKind::kCrashAfterCheckpoint, FaultPoint{}, "crash right after snapshot {}",
        ++snapshots_);
}

}  // namespace durasim
