// PerProcessActionIdRuntime implementation.
#include "properties/mutants/per_process_action_id.h"

#include "store/hash.h"

namespace durasim {

uint64_t PerProcessActionIdRuntime::ActionIdentity(const std::string& action_name) const {
  return HashCombine(ActionHash(action_name), static_cast<uint64_t>(world_.attempt()));  // the bug
}

}  // namespace durasim
