// The durable-call path of the agent runtime (durable_call.h): reusing a
// saved call result, or making the call with its result persisted around it.
#include "model/durable_call.h"

#include <fmt/format.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "model/agent_runtime.h"
#include "model/identity.h"

namespace durasim {
namespace {

SimDuration Ms(int64_t ms) { return std::chrono::duration_cast<SimDuration>(std::chrono::milliseconds(ms)); }

// Whether another durable call follows `step` in `action`.
bool CallsAfter(const ActionSpec& action, const ActionStep& step) {
  bool after = false;
  for (const ActionStep& other : action.steps) {
    if (after && other.kind == ActionStep::Kind::kCall) return true;
    if (&other == &step) after = true;
  }
  return false;
}

}  // namespace

boost::asio::awaitable<std::optional<Status>> AgentRuntime::RunCallStep(ActionRun& run, const ActionStep& step) {
  const CallIdentity call{run.state_key, run.call_index, step.name, CallDigest(step.name, run.acc)};
  const CallResult* old = run.saved_calls.Reuse(call, [this](const CallResult& saved) { return IsSavedResult(saved); });
  if (old == nullptr) co_return co_await MakeCall(run, step, call);
  world_.Record("call.reused", fmt::format("{} action_name={} status={} result={}", call.ToString(), run.action.name,
                                           CallStatusName(old->status), old->result));
  run.state.call_results.push_back(*old);
  if (old->status == CallStatus::kSucceeded) run.acc = old->result;
  ++run.call_index;
  co_return std::nullopt;
}

boost::asio::awaitable<std::optional<Status>> AgentRuntime::MakeCall(ActionRun& run, const ActionStep& step,
                                                                     const CallIdentity& call) {
  run.state.call_results.push_back(CallResult{step.name, call.args_digest, CallStatus::kPending, 0, ""});
  if (Status put = co_await PutState(run.state_key, run.state, PutPoint::kPending); !put.ok()) co_return put;
  const SupplierSpec& supplier = world_.suppliers().Find(step.name);
  const bool async = step.mode == CallMode::kAsync;
  if (async) {
    // The mailbox is free while the call is in flight.
    mailbox_letter_ = 0;
    mailbox_.Release();
  }
  const size_t call_trace =
      world_.Record("supplier.call", fmt::format("{} action_name={} mode={} arg={}", call.ToString(), run.action.name,
                                                 async ? "async" : "sync", run.acc));
  world_.Notify([&](RunObserver& o) { o.OnSupplierCall(call, run.acc, call_trace); });
  const int64_t result = world_.halted() ? 0 : world_.suppliers().Invoke(call, run.acc);
  if (async) faults_.OnAsyncCallStarted();
  if (faults_.OnCallStarted()) {
    world_.Record("call.cancel.injected", fmt::format("{} letter={}", call.ToString(), run.letter));
    PostCancel(run.letter);
  }
  auto [call_error] =
      co_await scheduler_.AsyncSleep(Ms(supplier.latency_ms), boost::asio::as_tuple(boost::asio::use_awaitable));
  if (async) {
    co_await mailbox_.Acquire(false);
    mailbox_letter_ = run.letter;
  }
  if (call_error) {
    world_.Record("call.cancelled", fmt::format("{} action_name={}", call.ToString(), run.action.name));
    co_return co_await CallCancelled(run.state_key, run.state, call);
  }
  world_.Record("supplier.result", fmt::format("{} result={}", call.ToString(), result));
  run.state.call_results.back().status = CallStatus::kSucceeded;
  run.state.call_results.back().result = result;
  if (Status put = co_await PutState(run.state_key, run.state, PutPoint::kResult); !put.ok()) co_return put;
  faults_.OnCallResultSaved(CallsAfter(run.action, step));
  run.acc = result;
  ++run.call_index;
  co_return std::nullopt;
}

}  // namespace durasim
