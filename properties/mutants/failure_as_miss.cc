// FailureAsMissRuntime implementation.
#include "properties/mutants/failure_as_miss.h"

namespace durasim {

bool FailureAsMissRuntime::IsSavedResult(const CallResult& saved) const {
  return saved.status == CallStatus::kSucceeded;  // the bug: a saved FAILED result counts as a miss
}

}  // namespace durasim
