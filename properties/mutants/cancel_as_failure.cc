// CancelAsFailureRuntime implementation.
#include "properties/mutants/cancel_as_failure.h"

#include "store/check.h"

namespace durasim {

boost::asio::awaitable<Status> CancelAsFailureRuntime::CallCancelled(const StateKey& state_key, ActionState& state,
                                                                     const CallIdentity& call) {
  // The call in flight made the last slot (MakeCall) before it was cancelled.
  DURASIM_CHECK(!state.call_results.empty());
  DURASIM_CHECK(state.call_results.back().function_id == call.function &&
                state.call_results.back().args_digest == call.args_digest);
  // The bug: the cancellation is saved as the call's outcome.
  CallResult& slot = state.call_results.back();
  slot.status = CallStatus::kFailed;
  slot.error = "cancelled";
  if (Status put = co_await PutState(state_key, state, PutPoint::kResult); !put.ok()) co_return put;
  co_return co_await AgentRuntime::CallCancelled(state_key, state, call);
}

}  // namespace durasim
