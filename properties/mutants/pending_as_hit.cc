// PendingAsHitRuntime implementation.
#include "properties/mutants/pending_as_hit.h"

namespace durasim {

bool PendingAsHitRuntime::IsSavedResult(const CallResult& /*saved*/) const {
  return true;  // the bug: a PENDING slot counts as saved too
}

}  // namespace durasim
