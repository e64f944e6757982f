// FaultPlan implementation.
#include "model/fault_plan.h"

#include <fmt/format.h>

#include "store/check.h"

namespace durasim {

size_t FaultPlan::Arm(FaultKind kind, int64_t nth) {
  DURASIM_CHECK_GE(nth, 1);  // points are counted from 1: nth 0 would never fire
  armed_.push_back(Armed{kind, nth});
  return armed_.size() - 1;
}

void FaultPlan::DisarmAll() {
  for (Armed& armed : armed_) armed.disarmed = true;
}

bool FaultPlan::Fire(FaultKind kind, int64_t count, std::optional<PutPoint> put) {
  for (size_t i = 0; i < armed_.size(); ++i) {
    Armed& armed = armed_[i];
    if (armed.fired || armed.disarmed || armed.kind != kind || armed.nth != count) continue;
    armed.fired = true;
    DURASIM_CHECK(hooks_.fired != nullptr);
    hooks_.fired(i, kind, count, put);
    return true;
  }
  return false;
}

void FaultPlan::Crash(FaultKind kind, int64_t count, std::optional<PutPoint> put, const std::string& reason) {
  if (!Fire(kind, count, put)) return;
  DURASIM_CHECK(hooks_.crash != nullptr);
  hooks_.crash(reason);
}

FaultPlan::PutFate FaultPlan::OnProduce(int64_t& ordinal) {
  ordinal = ++produced_;
  if (Fire(FaultKind::kRejectPut, ordinal, next_put_)) return PutFate::kReject;
  if (Fire(FaultKind::kLoseAck, ordinal, next_put_)) return PutFate::kLoseAck;
  return PutFate::kDeliver;
}

void FaultPlan::OnPersisted(int32_t partition, int64_t offset) {
  DURASIM_CHECK(partition >= 0 && offset >= 0);  // a position the log holds
  const int64_t count = ++persisted_;
  if (Fire(FaultKind::kCorruptRecord, count, next_put_)) hooks_.corrupt(partition, offset);
  Crash(FaultKind::kCrashAfterPutPersisted, count, next_put_,
        fmt::format("crash after put {} was persisted", count));
}

void FaultPlan::OnAcked() {
  const int64_t count = ++acked_;
  Crash(FaultKind::kCrashAfterPutAcked, count, next_put_, fmt::format("crash after put {} was acknowledged", count));
}

void FaultPlan::OnWaitStarted(int64_t ordinal, int subtask) {
  // A wait is for a put already produced in this attempt.
  DURASIM_CHECK(ordinal >= 1 && ordinal <= produced_);
  if (Fire(FaultKind::kCancelPut, ordinal, next_put_)) hooks_.cancel_wait(subtask);
}

void FaultPlan::OnCallResultSaved(bool more_calls_follow) {
  if (!more_calls_follow) return;  // only points between two calls count
  const int64_t count = ++calls_saved_;
  Crash(FaultKind::kCrashBetweenCalls, count, std::nullopt,
        fmt::format("crash after durable call {} was saved, before the next call", count));
}

void FaultPlan::OnAsyncCallStarted() {
  const int64_t count = ++async_started_;
  Crash(FaultKind::kCrashAsyncInFlight, count, std::nullopt,
        fmt::format("crash while async call {} is in flight", count));
}

bool FaultPlan::OnCallStarted() {
  const int64_t count = ++calls_started_;
  return Fire(FaultKind::kCancelCall, count, std::nullopt);
}

bool FaultPlan::OnCheckpointBarrier() {
  const int64_t count = ++barriers_;
  if (!Fire(FaultKind::kCrashBeforeCheckpoint, count, std::nullopt)) return false;
  hooks_.crash(fmt::format("crash as checkpoint barrier {} arrives", count));
  return true;
}

void FaultPlan::OnCheckpointTaken() {
  const int64_t count = ++snapshots_;
  Crash(FaultKind::kCrashAfterCheckpoint, count, std::nullopt, fmt::format("crash right after snapshot {}", count));
}

}  // namespace durasim
