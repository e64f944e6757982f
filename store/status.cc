// Status names and rendering.
#include "store/status.h"

namespace durasim {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid-argument";
    case StatusCode::kNotPersisted: return "not-persisted";
    case StatusCode::kPossiblyPersisted: return "possibly-persisted";
    case StatusCode::kCancelled: return "cancelled";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kInvalidRecovery: return "invalid-recovery";
    case StatusCode::kNotFound: return "not-found";
    case StatusCode::kInternal: return "internal";
    case StatusCode::kCallFailed: return "call-failed";
  }
  DURASIM_CHECK_MSG(false, "status code " + std::to_string(static_cast<int>(code)) + " has no name");
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

}  // namespace durasim
