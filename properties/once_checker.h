// Invariant: once. A supplier never runs for a call whose terminal result
// was already persisted in the log when the call started (in any attempt).
// Calls are compared by their production identity (StableIdentity), so a
// runtime whose names change between attempts does not hide a repeat.
#pragma once

#include <map>

#include "properties/invariant_checker.h"
#include "properties/stable_identity.h"

namespace durasim {

class OnceChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnActionExecuted(const TaskView& task, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, int64_t argument, size_t trace_index) override;

 private:
  StableIdentity stable_;
  std::map<CallIdentity, size_t> persisted_terminal_;  // stable call -> trace index of the append
};

}  // namespace durasim
