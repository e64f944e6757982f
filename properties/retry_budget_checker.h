// Invariant: retry-budget. The tries of one durable call never exceed its
// budget (1 + the action's `on_error: {retry: {max: N}}`, else 1), across
// all attempts, restores included.
//
// A try is a call index. After a FAILED result at index i, index i + 1 of
// the same action state can only be a retry of the same call (a failure is
// otherwise never followed by another call; an action that catches its
// failures, `on_error: continue`, goes on to new calls and is not judged
// here), so the tries of one call are a
// run of consecutive indices, with the same function and argument digest,
// where every index but the last holds a FAILED result. The log is the
// ground truth: the results come from the records appended for the state,
// and a supplier invocation at an index extends the run it follows. A call
// invoked again at the same index (a PENDING slot) is not a new try.
#pragma once

#include <map>
#include <vector>

#include "model/scenario.h"
#include "properties/invariant_checker.h"

namespace durasim {

class RetryBudgetChecker : public InvariantChecker {
 public:
  // `actions`: those of every plan the run deploys; an action listed twice
  // gets the larger budget.
  RetryBudgetChecker(const Trace& trace, const std::vector<ActionSpec>& actions);
  void OnLineage(int lineage) override { lineage_ = lineage; }
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) override;

 private:
  struct Saved {
    std::vector<CallResult> calls;
    size_t trace_index = 0;  // the append that holds them
  };
  std::map<uint64_t, int64_t> tries_max_by_action_hash_;
  // The latest call results appended per (lineage, state): a job started
  // fresh tries its calls anew (docs/scenarios.md, "Lineages").
  std::map<std::pair<int, StateKey>, Saved> latest_;
  int lineage_ = 0;
};

}  // namespace durasim
