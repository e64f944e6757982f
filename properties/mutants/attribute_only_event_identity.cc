// AttributeOnlyEventIdentityRuntime implementation.
#include "properties/mutants/attribute_only_event_identity.h"

#include "store/hash.h"

namespace durasim {

uint64_t AttributeOnlyEventIdentityRuntime::ChildEventIdentity(const StateKey& /*origin*/, uint64_t /*emit_index*/,
                                                               const std::string& type, int64_t value) const {
  return HashCombine(HashString(type), static_cast<uint64_t>(value));  // the bug: attributes only
}

}  // namespace durasim
