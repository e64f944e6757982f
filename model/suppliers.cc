// Suppliers implementation.
#include "model/suppliers.h"

#include <algorithm>

#include "model/wrapping.h"
#include "store/check.h"
#include "store/format.h"
#include "store/hash.h"

namespace durasim {
namespace {

// Whether the call is one of those a supplier with `fail_percent` fails: a
// digest of what the outside world sees of it (function, input key and
// sequence number, call index, argument), like its result, so every
// invocation agrees in every run, whatever hashes a runtime (or a mutant)
// gives the event and the action.
bool FailsByPercent(const CallIdentity& call, int64_t argument, int64_t fail_percent) {
  if (fail_percent <= 0) return false;
  uint64_t digest = HashString("fail:" + call.function);
  digest = HashCombine(digest, HashString(call.state_key.key));
  digest = HashCombine(digest, static_cast<uint64_t>(call.state_key.seq));
  digest = HashCombine(digest, static_cast<uint64_t>(call.call_index));
  digest = HashCombine(digest, static_cast<uint64_t>(argument));
  return static_cast<int64_t>(digest % 100) < fail_percent;
}

}  // namespace

Suppliers::Suppliers(const std::vector<SupplierSpec>& specs) { Deploy(specs); }

void Suppliers::Deploy(const std::vector<SupplierSpec>& specs) {
  specs_.clear();
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

SupplierOutcome Suppliers::Invoke(const CallIdentity& call, int64_t argument) {
  const SupplierSpec& spec = Find(call.function);
  Invoked& invoked = invoked_[call];
  const int64_t invocation = ++invoked.count;
  const int64_t nth = ++calls_by_supplier_[call.function];
  ++total_calls_;
  invoked.last =
      spec.fails_nth.has_value() && nth == *spec.fails_nth
          ? SupplierOutcome{true, 0, fmt::format("supplier {} failed: its invocation {} in the run", spec.name, nth)}
          : Answer(spec, call, argument, invocation);
  return invoked.last;
}

Suppliers::Reconciled Suppliers::Reconcile(const CallIdentity& call, int64_t argument) {
  const SupplierSpec& spec = Find(call.function);
  DURASIM_CHECK(!spec.reconcile.empty());
  const size_t asking = reconciler_askings_[call.function]++;
  const ReconcileAnswer scripted = spec.reconcile[std::min(asking, spec.reconcile.size() - 1)];
  // A call in the map was invoked: its last outcome is set.
  auto invoked = invoked_.find(call);
  switch (scripted) {
    case ReconcileAnswer::kTruth:
      if (invoked == invoked_.end()) return Reconciled{ReconcileAnswer::kNotDone, {}};
      return Reconciled{ReconcileAnswer::kDone, invoked->second.last};
    case ReconcileAnswer::kDone:
      return Reconciled{ReconcileAnswer::kDone,
                        invoked != invoked_.end() ? invoked->second.last : Answer(spec, call, argument, 1)};
    case ReconcileAnswer::kNotDone:
    case ReconcileAnswer::kUnknown: return Reconciled{scripted, {}};
  }
  DURASIM_CHECK_MSG(false, "a reconciler answer outside its table");
  return {};
}

SupplierOutcome Suppliers::Answer(const SupplierSpec& spec, const CallIdentity& call, int64_t argument,
                                  int64_t invocation) {
  if (FailsByPercent(call, argument, spec.fail_percent)) {
    return SupplierOutcome{true, 0, fmt::format("supplier {} failed: fail_percent {}", spec.name, spec.fail_percent)};
  }
  int64_t result;
  if (spec.scale.has_value()) {
    // Modulo 2^64 (model/wrapping.h): chained calls and memory reads grow an
    // argument without bound, and `scale` may be any 64-bit integer.
    result = WrappingMul(argument, *spec.scale);
  } else {
    uint64_t digest = HashString(call.function);
    digest = HashCombine(digest, HashString(call.state_key.key));
    digest = HashCombine(digest, static_cast<uint64_t>(call.state_key.seq));
    digest = HashCombine(digest, static_cast<uint64_t>(call.call_index));
    digest = HashCombine(digest, static_cast<uint64_t>(argument));
    result = static_cast<int64_t>(digest % 1000);
  }
  if (spec.drifting) {
    result = WrappingAdd(result, WrappingMul(1000, invocation - 1));
  }
  return SupplierOutcome{false, result, ""};
}

}  // namespace durasim
