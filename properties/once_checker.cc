// OnceChecker implementation.
#include "properties/once_checker.h"

#include <fmt/format.h>

#include "store/state_codec.h"

namespace durasim {

void OnceChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded, size_t trace_index) {
  if (decoded == nullptr) return;  // not a state record; other checkers judge decodability
  const std::vector<CallResult>& calls = decoded->state.call_results;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].status == CallStatus::kPending) continue;
    const CallIdentity call{decoded->state_key, static_cast<int>(i), calls[i].function_id, calls[i].args_digest};
    persisted_terminal_.emplace(stable_.Of(call), trace_index);  // keep the first
  }
}

void OnceChecker::OnActionExecuted(const TaskView& task, size_t /*trace_index*/) { stable_.LearnTask(task); }

void OnceChecker::OnSupplierCall(const CallIdentity& call, int64_t argument, size_t trace_index) {
  stable_.LearnCall(call, argument);
  auto it = persisted_terminal_.find(stable_.Of(call));
  if (it == persisted_terminal_.end()) return;
  Violate(Invariant::kOnce,
          fmt::format("supplier {} ran again for call [{}] although its result was already persisted",
                      call.function, call.ToString()),
          {it->second, trace_index});
}

}  // namespace durasim
