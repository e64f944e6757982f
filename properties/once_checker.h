// Invariant: once. A supplier never runs for a call whose terminal result
// was already persisted in the log when the call started (in any attempt).
#pragma once

#include <map>

#include "properties/invariant_checker.h"

namespace durasim {

class OnceChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, size_t trace_index) override;

 private:
  std::map<CallIdentity, size_t> persisted_terminal_;  // call -> trace index of the append
};

}  // namespace durasim
