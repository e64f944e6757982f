// ProvenanceChecker implementation.
#include "properties/provenance_checker.h"

#include <fmt/format.h>

namespace durasim {
namespace {

bool SameOutcome(const CallResult& a, const CallResult& b) {
  if (a.status != b.status) return false;
  switch (a.status) {
    case CallStatus::kSucceeded: return a.result == b.result;
    case CallStatus::kFailed: return a.error == b.error;
    case CallStatus::kPending: return true;
  }
  return false;
}

std::string Describe(const CallResult& result) {
  switch (result.status) {
    case CallStatus::kSucceeded: return fmt::format("result {}", result.result);
    case CallStatus::kFailed: return fmt::format("failure {:?}", result.error);
    case CallStatus::kPending: return "a PENDING slot (no result)";
  }
  return "?";
}

}  // namespace

void ProvenanceChecker::OnSupplierAnswered(const CallIdentity& call, const CallResult& answer, size_t trace_index) {
  answers_[call].push_back(Answer{answer, trace_index});
}

void ProvenanceChecker::OnCallResultUsed(const CallIdentity& call, const CallResult& used, bool reused,
                                         size_t trace_index) {
  const char* how = reused ? "reused" : "made";
  auto it = answers_.find(call);
  if (it == answers_.end()) {
    Violate(Invariant::kProvenance,
            fmt::format("call [{}] ({}) went on with {}, but no supplier call ever answered this call", call.ToString(),
                        how, Describe(used)),
            {trace_index});
    return;
  }
  const bool same_call = used.function_id == call.function && used.args_digest == call.args_digest;
  for (const Answer& answer : it->second) {
    if (same_call && SameOutcome(used, answer.result)) return;
  }
  const Answer& last = it->second.back();
  Violate(Invariant::kProvenance,
          fmt::format("call [{}] ({}) went on with {}{}, but its supplier answered {}", call.ToString(), how,
                      Describe(used), same_call ? "" : " saved for another function or argument",
                      Describe(last.result)),
          {last.trace_index, trace_index});
}

}  // namespace durasim
