// ProvenanceChecker implementation.
#include "properties/provenance_checker.h"

#include <algorithm>

#include "store/check.h"
#include "store/format.h"

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
  answers_[{lineage_, call}].push_back(Answer{answer, trace_index});
}

void ProvenanceChecker::OnReconciled(const CallIdentity& call, const CallResult& /*slot*/, ReconcileAnswer /*answer*/,
                                     const std::optional<CallResult>& saved, size_t trace_index) {
  if (saved.has_value()) answers_[{lineage_, call}].push_back(Answer{*saved, trace_index});
}

void ProvenanceChecker::OnCallResultUsed(const CallIdentity& call, const CallResult& used, bool reused,
                                         size_t trace_index) {
  const char* how = reused ? "reused" : "made";
  auto it = answers_.find({lineage_, call});
  if (it == answers_.end()) {
    // Another job's answer (a lineage started by another fresh start) is
    // none of this one's.
    auto other = std::find_if(answers_.begin(), answers_.end(),
                              [&](const auto& entry) { return entry.first.second == call; });
    if (other != answers_.end()) {
      DURASIM_CHECK(!other->second.empty());  // an entry holds the answer that made it
      Violate(Invariant::kProvenance,
              fmt::format("call [{}] ({}) went on with {}, but no supplier call of its lineage (the job started at "
                          "attempt {}) answered this call; the job started at attempt {} did ({}): a fresh start "
                          "must not go on with another job's results",
                          call.ToString(), how, Describe(used), lineage_, other->first.first,
                          Describe(other->second.back().result)),
              {other->second.back().trace_index, trace_index});
      return;
    }
    Violate(Invariant::kProvenance,
            fmt::format("call [{}] ({}) went on with {}, but no supplier call ever answered this call", call.ToString(),
                        how, Describe(used)),
            {trace_index});
    return;
  }
  DURASIM_CHECK(!it->second.empty());  // an entry holds the answer that made it
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
