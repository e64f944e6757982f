// Invariant: provenance. Every value an action uses as the result of a
// durable call (a result, or a failure it raises) was answered by the
// supplier for that exact call: the same state key, call index, function id
// and argument digest, in this attempt or an earlier one. It holds for
// results made now, results reused from a saved state after a restore, and
// each try of a retried call. A violation quotes the supplier's answer for
// that identity when there was one, or says that there was none. Within a
// lineage (docs/scenarios.md, "Lineages"): a job started fresh after
// earlier attempts must not go on with another job's answers. A
// reconciler's answer (done: the outcome it reports; unknown: the failure)
// is an answer for the call it was asked about.
#pragma once

#include <map>
#include <vector>

#include "properties/invariant_checker.h"

namespace durasim {

class ProvenanceChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnLineage(int lineage) override { lineage_ = lineage; }
  void OnSupplierAnswered(const CallIdentity& call, const CallResult& answer, size_t trace_index) override;
  // A reconciler's done (the outside world's outcome) or unknown (a
  // failure) answers the call too.
  void OnReconciled(const CallIdentity& call, const CallResult& slot, ReconcileAnswer answer,
                    const std::optional<CallResult>& saved, size_t trace_index) override;
  void OnCallResultUsed(const CallIdentity& call, const CallResult& used, bool reused, size_t trace_index) override;

 private:
  struct Answer {
    CallResult result;
    size_t trace_index = 0;
  };
  // Every supplier answer, by call identity, in order (a call made again
  // after a crash left its slot PENDING has several).
  // By lineage.
  std::map<std::pair<int, CallIdentity>, std::vector<Answer>> answers_;
  int lineage_ = 0;
};

}  // namespace durasim
