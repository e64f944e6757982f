// The durable-call path of the agent runtime: AgentRuntime's members
// (agent_runtime.h) that reuse a saved call result (SavedCalls,
// durable_call.h) or make the call with its result persisted around it.
// Part of the runtime's unit: durable_call.h holds the types it uses and
// knows nothing of the runtime.
#include "model/agent_runtime.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "model/durable_call.h"
#include "model/identity.h"
#include "model/suppliers.h"
#include "store/format.h"

namespace durasim {
namespace {

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
  // Each try of the call is its own call at its own index; a saved failure
  // counts as a try, so the budget holds across restores.
  for (int64_t tried = 1;;) {
    const CallArgument argument = ArgumentOf(run, step);
    const CallIdentity call{run.state_key, run.call_index, step.name, CallDigest(step.name, argument)};
    const CallResult* old = run.saved_calls.Reuse(
        call, [this](const CallResult& saved, const CallIdentity& c) { return SavedCallMatches(saved, c); },
        [this](const CallResult& saved) { return IsSavedResult(saved); });
    if (const CallResult* mismatch = run.saved_calls.TakeMismatch()) {
      // Flink Agents' rule: from the first saved call that is not this call
      // (another function, or another argument), the saved calls are
      // discarded and every call is made.
      const size_t line =
          world_.Record("call.mismatch", "{} action_name={} saved_fn={} saved_args={:016x}", CallText{call},
                        run.action.name, mismatch->function_id, mismatch->args_digest);
      world_.Notify([&](RunObserver& o) { o.OnSavedCallMismatch(call, argument, *mismatch, line); });
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kSavedCallMismatch));
    }
    // A call's very slot, PENDING (or, to a mutant, any), goes to its
    // supplier's reconciler first, when it has one.
    const CallResult* same = run.saved_calls.SameCallSlot();
    std::optional<CallResult> reconciled;
    if (same != nullptr && !world_.suppliers().Find(step.name).reconcile.empty() && AsksReconciler(*same)) {
      reconciled = Reconcile(run, call, argument, *same);
      old = nullptr;  // what the reconciler says replaces the slot
    }
    if (reconciled.has_value()) {
      run.state.call_results.push_back(*reconciled);
      if (Status put = co_await PutState(run.state_key, run.state, PutPoint::kResult); !put.ok()) co_return put;
    } else if (old == nullptr) {
      if (std::optional<Status> end =
              co_await MakeCall(run, step, call, argument, tried < run.action.on_error.tries_max())) {
        co_return end;
      }
    } else {
      ReuseCall(run, call, *old);
    }
    ++run.call_index;
    const CallResult outcome = run.state.call_results.back();
    world_.Notify([&](RunObserver& o) { o.OnCallResultUsed(call, outcome, old != nullptr, world_.trace().size() - 1); });
    if (outcome.status == CallStatus::kSucceeded) run.acc = outcome.result;
    // A PENDING slot is reused only by a runtime that takes it for saved (a
    // mutant): the action goes on without a result.
    if (outcome.status != CallStatus::kFailed) co_return std::nullopt;
    if (std::optional<Status> end = HandleCallFailure(run, call, outcome, tried)) co_return end;
    if (run.ignored || run.continued) {
      run.continued = false;  // caught: the next call's failure is its own
      co_return std::nullopt;
    }
    tried += TriesOf(old != nullptr);
  }
}

std::optional<CallResult> AgentRuntime::Reconcile(ActionRun& run, const CallIdentity& call,
                                                  const CallArgument& argument, const CallResult& slot) {
  const Suppliers::Reconciled answer = world_.suppliers().Reconcile(call, argument.value);
  std::optional<CallResult> saved;
  switch (answer.answer) {
    case ReconcileAnswer::kDone:
      saved = CallResult{call.function, call.args_digest,
                         answer.outcome.failed ? CallStatus::kFailed : CallStatus::kSucceeded,
                         answer.outcome.failed ? 0 : answer.outcome.result, answer.outcome.error};
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kReconciledDone));
      break;
    case ReconcileAnswer::kUnknown:
      // Flink Agents persists a reconciler's exception as the call's failure.
      saved = CallResult{call.function, call.args_digest, CallStatus::kFailed, 0,
                         fmt::format("reconciler of {} could not tell whether the call completed", call.function)};
      world_.NoteReconcilerUnknown(call.state_key.key);
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kReconciledUnknown));
      break;
    case ReconcileAnswer::kNotDone:
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kReconciledNotDone));
      break;
    case ReconcileAnswer::kTruth: DURASIM_CHECK_MSG(false, "a reconciler answer is resolved before it is used");
  }
  const size_t line = world_.Record(
      "call.reconciled", "{} action_name={} slot={} answer={}{}", CallText{call}, run.action.name,
      CallStatusName(slot.status), NameOf(answer.answer),
      !saved                                  ? ""
      : saved->status == CallStatus::kFailed ? fmt::format(" error={:?}", saved->error)
                                              : fmt::format(" result={}", saved->result));
  world_.Notify([&](RunObserver& o) { o.OnReconciled(call, slot, answer.answer, saved, line); });
  return saved;
}

void AgentRuntime::ReuseCall(ActionRun& run, const CallIdentity& call, const CallResult& saved) {
  world_.Record("call.reused", "{} action_name={} status={} result={}", CallText{call}, run.action.name,
                CallStatusName(saved.status), saved.result);
  // A saved failure is re-raised as it was saved: the supplier is not called.
  if (saved.status == CallStatus::kFailed) world_.CountFault(CoveragePoint::Reached(WorldFeature::kFailureReraised));
  run.state.call_results.push_back(saved);
}

std::optional<Status> AgentRuntime::HandleCallFailure(ActionRun& run, const CallIdentity& call,
                                                      const CallResult& failed, int64_t tried) {
  const ErrorHandling& handling = run.action.on_error;
  const bool retry = handling.kind == OnError::kRetry && tried < handling.tries_max();
  const OnError applied = retry                                  ? OnError::kRetry
                          : handling.kind == OnError::kRetry     ? OnError::kFail  // out of tries
                                                                 : handling.kind;
  world_.Record("call.failed", "{} action_name={} try={}/{} on_error={} error={:?}", CallText{call},
                run.action.name, tried, handling.tries_max(), NameOf(applied), failed.error);
  switch (applied) {
    case OnError::kRetry: world_.CountFault(CoveragePoint::Reached(WorldFeature::kOnErrorRetry)); return std::nullopt;
    case OnError::kIgnore:
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kOnErrorIgnore));
      run.ignored = true;
      return std::nullopt;
    case OnError::kContinue:
      // The action's catch block: it goes on with the fallback value.
      world_.CountFault(CoveragePoint::Reached(WorldFeature::kOnErrorContinue));
      run.acc = handling.fallback;
      run.continued = true;
      return std::nullopt;
    case OnError::kFail: break;
  }
  world_.CountFault(CoveragePoint::Reached(WorldFeature::kOnErrorFail));
  Status status(StatusCode::kCallFailed, fmt::format("durable call [{}] failed: {}", call.ToString(), failed.error));
  call_failure_ = status.ToString();
  call_failure_key_ = call.state_key.key;
  return status;
}

CallArgument AgentRuntime::ArgumentOf(const ActionRun& run, const ActionStep& step) const {
  switch (step.arg) {
    case ArgSource::kAcc: break;
    case ArgSource::kAttempt: return CallArgument{run.acc, world_.attempt()};
  }
  return CallArgument{run.acc, std::nullopt};
}

void AgentRuntime::TakeAnswer(ActionRun& run, const CallIdentity& call, const SupplierOutcome& outcome) {
  CallResult& slot = run.state.call_results.back();
  size_t answer_trace = 0;
  if (outcome.failed) {
    // A failure is a terminal result: saved, and re-raised on replay.
    answer_trace = world_.Record("supplier.failed", "{} error={:?}", CallText{call}, outcome.error);
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kCallFailed));
    slot.status = CallStatus::kFailed;
    slot.error = outcome.error;
  } else {
    answer_trace = world_.Record("supplier.result", "{} result={}", CallText{call}, outcome.result);
    slot.status = CallStatus::kSucceeded;
    slot.result = outcome.result;
  }
  world_.Notify([&](RunObserver& o) { o.OnSupplierAnswered(call, slot, answer_trace); });
  // What the supplier answered is told as it was; what is saved of a failure
  // the action catches is the runtime's to choose.
  if (outcome.failed && run.action.on_error.kind == OnError::kContinue) {
    slot = CaughtFailureSlot(slot, run.action.on_error.fallback);
  }
}

boost::asio::awaitable<std::optional<Status>> AgentRuntime::MakeCall(ActionRun& run, const ActionStep& step,
                                                                     const CallIdentity& call,
                                                                     const CallArgument& argument, bool retry_follows) {
  const SupplierSpec& supplier = world_.suppliers().Find(step.name);
  // No executor for async calls: the call runs synchronously.
  const bool fallback = step.mode == CallMode::kAsync && !world_.scenario().durable.async_executor;
  if (fallback) world_.CountFault(CoveragePoint::Reached(WorldFeature::kSyncFallback));
  const bool persisted = !fallback || PersistsFallbackCall();
  run.state.call_results.push_back(CallResult{step.name, call.args_digest, CallStatus::kPending, 0, ""});
  if (!persisted) {
    // (A mutant's) the call is made outside the durable path: nothing saved.
  } else if (SavesPendingFirst(supplier)) {
    if (Status put = co_await PutState(run.state_key, run.state, PutPoint::kPending); !put.ok()) co_return put;
  } else if (world_.scenario().durable.execution) {
    // Persisted once, at its completion: a crash before it leaves no slot.
    world_.CountFault(CoveragePoint::Reached(WorldFeature::kCompletionOnlyCall));
  }
  const bool async = step.mode == CallMode::kAsync && !fallback;
  if (async) {
    // The mailbox is free while the call is in flight.
    mailbox_letter_ = 0;
    mailbox_.Release();
  }
  if (argument.attempt.has_value()) world_.CountFault(CoveragePoint::Reached(WorldFeature::kAttemptArgument));
  const size_t call_trace = world_.Record(
      "supplier.call",
      "{} action_name={} mode={} arg={}{}", CallText{call}, run.action.name,
      async ? "async" : fallback ? "async-as-sync" : "sync",
                  argument.value, argument.attempt ? fmt::format(" arg_attempt={}", *argument.attempt) : "");
  world_.Notify([&](RunObserver& o) { o.OnSupplierCall(call, argument, call_trace); });
  // The answer depends on the argument's value alone (CallArgument).
  const SupplierOutcome outcome = world_.halted() ? SupplierOutcome{} : world_.suppliers().Invoke(call, argument.value);
  const FaultPoint call_point = CallFaultPoint(call, subtask_.index);
  if (async) faults_.OnAsyncCallStarted(call_point);
  if (faults_.OnCallStarted(call_point)) {
    world_.Record("call.cancel.injected", "{} letter={}", CallText{call}, run.letter);
    PostCancel(run.letter);
  }
  auto [call_error] =
      co_await scheduler_.AsyncSleep(scheduler_.LatencyMs(supplier.latency_ms, supplier.latency_ms_max),
                                     boost::asio::as_tuple(boost::asio::use_awaitable));
  if (async) {
    if (!mailbox_.TryAcquire()) co_await mailbox_.Acquire(false);
    mailbox_letter_ = run.letter;
  }
  if (call_error) {
    world_.Record("call.cancelled", "{} action_name={}", CallText{call}, run.action.name);
    co_return co_await CallCancelled(run.state_key, run.state, call);
  }
  TakeAnswer(run, call, outcome);
  if (!persisted) co_return std::nullopt;
  if (Status put = co_await PutState(run.state_key, run.state, PutPoint::kResult); !put.ok()) co_return put;
  // A caught failure (on_error: continue) goes on to the action's next call.
  const bool caught = outcome.failed && run.action.on_error.kind == OnError::kContinue;
  faults_.OnCallResultSaved(outcome.failed && !caught ? retry_follows : CallsAfter(run.action, step), call_point);
  co_return std::nullopt;
}

}  // namespace durasim
