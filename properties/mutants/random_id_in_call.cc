// RandomIdInCallRuntime implementation.
#include "properties/mutants/random_id_in_call.h"

#include "store/hash.h"

namespace durasim {

uint64_t RandomIdInCallRuntime::CallDigest(const std::string& function, const CallArgument& arg) const {
  return HashCombine(CallArgsDigest(function, arg), static_cast<uint64_t>(world_.attempt()));  // the bug
}

}  // namespace durasim
