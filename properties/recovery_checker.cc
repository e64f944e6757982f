// RecoveryChecker implementation.
#include "properties/recovery_checker.h"

namespace durasim {

void RecoveryChecker::OnRebuild(const Status& status, bool marker_invalid_expected, bool corrupt_in_range,
                                size_t trace_index) {
  if (status.ok() && corrupt_in_range) {
    Violate(Invariant::kInvalidRecovery, "rebuild accepted a corrupt record it had to read", {trace_index});
  }
  if (status.ok() && marker_invalid_expected) {
    Violate(Invariant::kInvalidRecovery, "rebuild accepted an invalid recovery marker", {trace_index});
  }
  if (status.code() == StatusCode::kInvalidRecovery && !corrupt_in_range && !marker_invalid_expected) {
    Violate(Invariant::kInvalidRecovery, "rebuild rejected valid recovery data: " + status.ToString(), {trace_index});
  }
}

}  // namespace durasim
