// FaultPlan implementation.
#include "model/fault_plan.h"

#include <fmt/format.h>

#include "store/check.h"

namespace durasim {

size_t FaultPlan::Arm(FaultKind kind, int64_t nth, std::optional<int32_t> subtask) {
  DURASIM_CHECK_GE(nth, 1);  // points are counted from 1: nth 0 would never fire
  armed_.push_back(Armed{kind, nth, subtask});
  return armed_.size() - 1;
}

void FaultPlan::DisarmAll() {
  for (Armed& armed : armed_) armed.disarmed = true;
}

FaultPlan::Count FaultPlan::Next(int64_t Counters::*counter, int subtask) {
  Count count;
  count.job = ++(job_.*counter);
  count.subtask = subtask;
  count.in_subtask = subtask >= 0 ? ++(by_subtask_[subtask].*counter) : count.job;
  return count;
}

bool FaultPlan::Fire(FaultKind kind, const Count& count, std::optional<PutPoint> put) {
  for (size_t i = 0; i < armed_.size(); ++i) {
    Armed& armed = armed_[i];
    if (armed.fired || armed.disarmed || armed.kind != kind) continue;
    // A job's point (subtask -1) counts for an arm on any subtask.
    const bool scoped = armed.subtask.has_value() && count.subtask >= 0;
    if (scoped && *armed.subtask != count.subtask) continue;
    const int64_t nth = scoped ? count.in_subtask : count.job;
    if (armed.nth != nth) continue;
    armed.fired = true;
    DURASIM_CHECK(hooks_.fired != nullptr);
    hooks_.fired(i, kind, nth, put);
    return true;
  }
  return false;
}

void FaultPlan::Crash(FaultKind kind, const Count& count, std::optional<PutPoint> put, const std::string& reason) {
  if (!Fire(kind, count, put)) return;
  DURASIM_CHECK(hooks_.crash != nullptr);
  hooks_.crash(reason);
}

FaultPlan::PutFate FaultPlan::OnProduce(int64_t& ordinal, int subtask) {
  const Count count = Next(&Counters::produced, subtask);
  ordinal = count.job;
  produced_counts_[ordinal] = count;
  if (Fire(FaultKind::kRejectPut, count, next_put_)) return PutFate::kReject;
  if (Fire(FaultKind::kLoseAck, count, next_put_)) return PutFate::kLoseAck;
  return PutFate::kDeliver;
}

void FaultPlan::OnPersisted(int32_t partition, int64_t offset, int subtask) {
  DURASIM_CHECK(partition >= 0 && offset >= 0);  // a position the log holds
  const Count count = Next(&Counters::persisted, subtask);
  if (Fire(FaultKind::kCorruptRecord, count, next_put_)) hooks_.corrupt(partition, offset);
  Crash(FaultKind::kCrashAfterPutPersisted, count, next_put_,
        fmt::format("crash after put {} was persisted", count.job));
}

void FaultPlan::OnAcked(int subtask) {
  const Count count = Next(&Counters::acked, subtask);
  Crash(FaultKind::kCrashAfterPutAcked, count, next_put_,
        fmt::format("crash after put {} was acknowledged", count.job));
}

void FaultPlan::OnWaitStarted(int64_t ordinal, int subtask) {
  // A wait is for a put already produced in this attempt.
  // The wait's number is its put's: in the job, and among its subtask's puts.
  auto produced = produced_counts_.find(ordinal);
  DURASIM_CHECK(produced != produced_counts_.end() && produced->second.subtask == subtask);
  if (Fire(FaultKind::kCancelPut, produced->second, next_put_)) hooks_.cancel_wait(subtask);
}

void FaultPlan::OnCallResultSaved(bool more_calls_follow, int subtask) {
  if (!more_calls_follow) return;  // only points between two calls count
  const Count count = Next(&Counters::calls_saved, subtask);
  Crash(FaultKind::kCrashBetweenCalls, count, std::nullopt,
        fmt::format("crash after durable call {} was saved, before the next call", count.job));
}

void FaultPlan::OnAsyncCallStarted(int subtask) {
  const Count count = Next(&Counters::async_started, subtask);
  Crash(FaultKind::kCrashAsyncInFlight, count, std::nullopt,
        fmt::format("crash while async call {} is in flight", count.job));
}

bool FaultPlan::OnCallStarted(int subtask) {
  return Fire(FaultKind::kCancelCall, Next(&Counters::calls_started, subtask), std::nullopt);
}

bool FaultPlan::OnCheckpointBarrier(int subtask) {
  const Count count = Next(&Counters::barriers, subtask);
  if (!Fire(FaultKind::kCrashBeforeCheckpoint, count, std::nullopt)) return false;
  hooks_.crash(fmt::format("crash as checkpoint barrier {} arrives", count.job));
  return true;
}

void FaultPlan::OnCheckpointTaken() {
  const Count count{++snapshots_, snapshots_, -1};
  Crash(FaultKind::kCrashAfterCheckpoint, count, std::nullopt, fmt::format("crash right after snapshot {}", count.job));
}

}  // namespace durasim
