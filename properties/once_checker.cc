// OnceChecker implementation.
#include "properties/once_checker.h"

#include "store/check.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {

void OnceChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded, size_t trace_index) {
  if (decoded == nullptr) return;  // not a state record; other checkers judge decodability
  const std::vector<CallResult>& calls = decoded->state.call_results;
  const bool put_by_runtime = runtime_puts_.InFlight(decoded->state_key);
  if (auto discard = discards_.empty() ? discards_.end() : discards_.find({lineage_, stable_.Of(decoded->state_key)});
      discard != discards_.end() && put_by_runtime) {
    // The next record of the state, in whichever attempt it is seen: if it
    // no longer holds the discarded saved call, it superseded the discarded
    // results.
    const size_t at = static_cast<size_t>(discard->second.index);
    const bool kept = at < calls.size() &&
                      stable_.Of(CallIdentity{decoded->state_key, discard->second.index, calls[at].function_id,
                                              calls[at].args_digest}) == discard->second.saved;
    if (!kept) {
      std::erase_if(persisted_terminal_, [&](const auto& entry) {
        return entry.first.first == lineage_ && entry.first.second.state_key == discard->first.second &&
               entry.first.second.call_index >= discard->second.index;
      });
    }
    discards_.erase(discard);
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].status == CallStatus::kPending) continue;
    const CallIdentity call{decoded->state_key, static_cast<int>(i), calls[i].function_id, calls[i].args_digest};
    persisted_terminal_.try_emplace(std::make_pair(lineage_, stable_.Of(call)), trace_index);  // keep the first
  }
}

void OnceChecker::OnActionExecuted(const TaskView& task, size_t /*trace_index*/) { stable_.LearnTask(task); }

void OnceChecker::OnSavedCallMismatch(const CallIdentity& call, const CallArgument& argument,
                                      const CallResult& saved, size_t /*trace_index*/) {
  stable_.LearnCall(call, argument);
  const CallIdentity stable = stable_.Of(call);
  const CallIdentity saved_call{call.state_key, call.call_index, saved.function_id, saved.args_digest};
  const CallIdentity saved_stable = stable_.Of(saved_call);
  if (saved_stable == stable) return;  // the same call under a name that changed: no mismatch
  DURASIM_CHECK_GE(stable.call_index, 0);  // OnRecordAppended reads the discard's index as a position
  discards_.insert_or_assign({lineage_, stable.state_key}, Discard{stable.call_index, saved_stable});
}

void OnceChecker::OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) {
  stable_.LearnCall(call, argument);
  auto it = persisted_terminal_.find({lineage_, stable_.Of(call)});
  if (it == persisted_terminal_.end()) return;
  Violate(Invariant::kOnce,
          fmt::format("supplier {} ran again for call [{}] although its result was already persisted",
                      call.function, call.ToString()),
          {it->second, trace_index});
}

}  // namespace durasim
