// Names of the scenario vocabulary shared by the parser, the writer and the
// fault plan.
#include "model/scenario.h"

#include "store/check.h"

namespace durasim {

const std::vector<FaultKindInfo>& AllFaultKinds() {
  static const std::vector<FaultKindInfo> kKinds = {
      {FaultKind::kCrashAfterPutPersisted, "crash_after_put_persisted"},
      {FaultKind::kCrashAfterPutAcked, "crash_after_put_acked"},
      {FaultKind::kCrashBetweenCalls, "crash_between_calls"},
      {FaultKind::kCrashAsyncInFlight, "crash_async_in_flight"},
      {FaultKind::kCrashBeforeCheckpoint, "crash_before_checkpoint"},
      {FaultKind::kCrashAfterCheckpoint, "crash_after_checkpoint"},
      {FaultKind::kRejectPut, "reject_put"},
      {FaultKind::kLoseAck, "lose_ack"},
      {FaultKind::kCancelPut, "cancel_put"},
      {FaultKind::kCancelCall, "cancel_call"},
      {FaultKind::kCorruptRecord, "corrupt_record"},
  };
  return kKinds;
}

const char* FaultKindName(FaultKind kind) {
  for (const FaultKindInfo& info : AllFaultKinds()) {
    if (info.kind == kind) return info.name;
  }
  DURASIM_CHECK_MSG(false, "fault kind " + std::to_string(static_cast<int>(kind)) + " is not in AllFaultKinds()");
  return "unknown";
}

}  // namespace durasim
