// Suppliers: the outside world behind durable calls. Each invocation is
// counted per call identity; the result is a pure function of the identity
// and the argument, unless the supplier is drifting (then it also changes
// with every invocation, so a repeated call shows in the outputs). A
// supplier may fail: its nth invocation in the run (`fails_nth`), or every
// call whose identity digest falls under `fail_percent`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/observer.h"
#include "model/scenario.h"

namespace durasim {

// What one invocation gave: a result, or a failure and its error payload.
struct SupplierOutcome {
  bool failed = false;
  int64_t result = 0;  // when not failed
  std::string error;   // when failed
};

class Suppliers {
 public:
  explicit Suppliers(const std::vector<SupplierSpec>& specs);
  // Replaces the suppliers by those of a newly deployed plan; the counts of
  // invocations stay (the outside world does not restart).
  void Deploy(const std::vector<SupplierSpec>& specs);

  // REQUIRES: a supplier with this name exists (the parser checks).
  const SupplierSpec& Find(const std::string& name) const;
  // Invokes the supplier for `call` with argument `argument`.
  SupplierOutcome Invoke(const CallIdentity& call, int64_t argument);
  // Asks the reconciler of `call`'s supplier (REQUIRES: it has one) what
  // became of `call`: its next scripted answer, resolved. Done carries the
  // outcome of the call's last invocation, or, when it was never invoked,
  // the one its supplier gives that argument (invoking nothing).
  struct Reconciled {
    ReconcileAnswer answer = ReconcileAnswer::kNotDone;  // never kTruth
    SupplierOutcome outcome;                             // when done
  };
  Reconciled Reconcile(const CallIdentity& call, int64_t argument);

  // One call's invocations so far and what the last one answered.
  struct Invoked {
    int64_t count = 0;
    SupplierOutcome last;
  };
  int64_t total_calls() const { return total_calls_; }
  const std::map<CallIdentity, Invoked>& calls_by_identity() const { return invoked_; }
  const std::map<std::string, int64_t>& calls_by_supplier() const { return calls_by_supplier_; }

 private:
  // What `spec` answers `call` with `argument` at its `invocation`th
  // invocation (1-based), but for `fails_nth`, which counts invocations.
  static SupplierOutcome Answer(const SupplierSpec& spec, const CallIdentity& call, int64_t argument,
                                int64_t invocation);

  std::map<std::string, SupplierSpec> specs_;
  std::map<CallIdentity, Invoked> invoked_;  // one lookup an invocation
  std::map<std::string, size_t> reconciler_askings_;  // by supplier
  std::map<std::string, int64_t> calls_by_supplier_;
  int64_t total_calls_ = 0;
};

}  // namespace durasim
