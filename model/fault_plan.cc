// FaultPlan implementation.
//
// Determinism contract (model/): no wall clock, no threads, no
// std::random_device, no iteration over unordered containers where the order
// can reach the trace, no standard-library distributions.
#include "model/fault_plan.h"

#include <fmt/format.h>

namespace durasim {

const char* FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kCrashAfterPutPersisted: return "crash_after_put_persisted";
    case FaultKind::kCrashAfterPutAcked: return "crash_after_put_acked";
    case FaultKind::kCrashAsyncInFlight: return "crash_async_in_flight";
    case FaultKind::kRejectPut: return "reject_put";
    case FaultKind::kLoseAck: return "lose_ack";
    case FaultKind::kCancelPut: return "cancel_put";
  }
  return "unknown";
}

void FaultPlan::Arm(FaultKind kind, int64_t nth) { armed_.push_back(Armed{kind, nth}); }

bool FaultPlan::Fire(FaultKind kind, int64_t count) {
  for (Armed& armed : armed_) {
    if (armed.fired || armed.kind != kind || armed.nth != count) continue;
    armed.fired = true;
    hooks_.record("fault.fired", fmt::format("fault={} nth={}", FaultKindName(kind), count));
    return true;
  }
  return false;
}

FaultPlan::PutFate FaultPlan::OnProduce(int64_t& ordinal) {
  ordinal = ++produced_;
  if (Fire(FaultKind::kRejectPut, ordinal)) return PutFate::kReject;
  if (Fire(FaultKind::kLoseAck, ordinal)) return PutFate::kLoseAck;
  return PutFate::kDeliver;
}

void FaultPlan::OnPersisted() {
  const int64_t count = ++persisted_;
  if (Fire(FaultKind::kCrashAfterPutPersisted, count)) {
    hooks_.crash(fmt::format("crash after put {} was persisted", count));
  }
}

void FaultPlan::OnAcked() {
  const int64_t count = ++acked_;
  if (Fire(FaultKind::kCrashAfterPutAcked, count)) {
    hooks_.crash(fmt::format("crash after put {} was acknowledged", count));
  }
}

void FaultPlan::OnAsyncCallStarted() {
  const int64_t count = ++async_started_;
  if (Fire(FaultKind::kCrashAsyncInFlight, count)) {
    hooks_.crash(fmt::format("crash while async call {} is in flight", count));
  }
}

void FaultPlan::OnWaitStarted(int64_t ordinal) {
  if (Fire(FaultKind::kCancelPut, ordinal)) hooks_.cancel_wait();
}

}  // namespace durasim
