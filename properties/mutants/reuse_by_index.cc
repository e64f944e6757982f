// ReuseByIndexRuntime implementation.
#include "properties/mutants/reuse_by_index.h"

namespace durasim {

bool ReuseByIndexRuntime::SavedCallMatches(const CallResult& /*saved*/, const CallIdentity& /*call*/) const {
  return true;  // the bug: the saved slot of the index is taken for the call, unchecked
}

}  // namespace durasim
