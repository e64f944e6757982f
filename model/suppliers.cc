// Suppliers implementation.
#include "model/suppliers.h"

#include "store/check.h"
#include "store/hash.h"

namespace durasim {

Suppliers::Suppliers(const std::vector<SupplierSpec>& specs) {
  for (const SupplierSpec& spec : specs) {
    // The parser rejects a name declared twice; a second spec would be ignored.
    const bool inserted = specs_.emplace(spec.name, spec).second;
    DURASIM_CHECK_MSG(inserted, "supplier " + spec.name + " declared twice");
  }
}

const SupplierSpec& Suppliers::Find(const std::string& name) const {
  auto it = specs_.find(name);
  DURASIM_CHECK_MSG(it != specs_.end(), "no supplier named " + name);
  return it->second;
}

int64_t Suppliers::Invoke(const CallIdentity& call, int64_t argument) {
  const SupplierSpec& spec = Find(call.function);
  const int64_t invocation = ++calls_[call];
  ++total_calls_;
  int64_t result;
  if (spec.scale.has_value()) {
    result = argument * *spec.scale;
  } else {
    uint64_t digest = HashString(call.function);
    digest = HashCombine(digest, HashString(call.state_key.key));
    digest = HashCombine(digest, static_cast<uint64_t>(call.state_key.seq));
    digest = HashCombine(digest, static_cast<uint64_t>(call.call_index));
    digest = HashCombine(digest, static_cast<uint64_t>(argument));
    result = static_cast<int64_t>(digest % 1000);
  }
  if (spec.drifting) result += 1000 * (invocation - 1);
  return result;
}

}  // namespace durasim
