// RetryBudgetChecker implementation.
#include "properties/retry_budget_checker.h"

#include <algorithm>
#include <set>

#include "model/identity.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

RetryBudgetChecker::RetryBudgetChecker(const Trace& trace, const std::vector<ActionSpec>& actions)
    : InvariantChecker(trace) {
  // An action of several plans gets the largest budget any of them gives.
  std::set<uint64_t> catching;
  for (const ActionSpec& action : actions) {
    int64_t& tries_max = tries_max_by_action_hash_[ActionHash(action.name)];
    tries_max = std::max(tries_max, action.on_error.tries_max());
    if (action.on_error.kind == OnError::kContinue) catching.insert(ActionHash(action.name));
  }
  // An action that catches a failure goes on, and its next call may be the
  // same call again (the fallback as its argument): a new call, not a try.
  // Its calls have no budget this checker can tell from the log.
  for (uint64_t hash : catching) tries_max_by_action_hash_.erase(hash);
}

void RetryBudgetChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded,
                                          size_t trace_index) {
  if (decoded == nullptr) return;  // a tombstone or a corrupt record: other checkers judge it
  // Only a call of an action with a budget reads its state back (OnSupplierCall).
  if (!tries_max_by_action_hash_.contains(decoded->state_key.action_hash)) return;
  // Assigned in place: the saved calls' strings can keep their buffers.
  Saved& saved = latest_[{lineage_, decoded->state_key}];
  saved.calls = decoded->state.call_results;
  saved.trace_index = trace_index;
}

void RetryBudgetChecker::OnSupplierCall(const CallIdentity& call, const CallArgument& /*argument*/,
                                        size_t trace_index) {
  auto budget = tries_max_by_action_hash_.find(call.state_key.action_hash);
  if (budget == tries_max_by_action_hash_.end()) return;  // not an action of the plan: other checkers judge it
  auto saved = latest_.find({lineage_, call.state_key});
  if (saved == latest_.end()) return;  // nothing saved before: a first try
  const std::vector<CallResult>& calls = saved->second.calls;
  int first = call.call_index;
  while (first > 0 && static_cast<size_t>(first - 1) < calls.size()) {
    const CallResult& before = calls[static_cast<size_t>(first - 1)];
    if (before.status != CallStatus::kFailed || before.function_id != call.function ||
        before.args_digest != call.args_digest) {
      break;
    }
    --first;
  }
  // The run of tries starts at the call or before it, never before index 0.
  DURASIM_CHECK(first >= 0 && first <= call.call_index);
  const int64_t tries = call.call_index - first + 1;
  if (tries <= budget->second) return;
  Violate(Invariant::kRetryBudget,
          fmt::format("call [{}] is try {} of the call first tried at index {}, over its budget of {} tries", call.ToString(),
                      tries, first, budget->second),
          {saved->second.trace_index, trace_index});
}

}  // namespace durasim
