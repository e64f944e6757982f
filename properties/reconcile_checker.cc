// ReconcileChecker implementation.
#include "properties/reconcile_checker.h"

#include <algorithm>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

ReconcileChecker::ReconcileChecker(const Trace& trace, const std::vector<SupplierSpec>& suppliers, bool stored)
    : InvariantChecker(trace), stored_(stored) {
  std::set<std::string> without;
  for (const SupplierSpec& supplier : suppliers) {
    (supplier.reconcile.empty() ? without : reconciled_).insert(supplier.name);
  }
  for (const std::string& name : without) reconciled_.erase(name);
  any_reconciler_ = std::any_of(suppliers.begin(), suppliers.end(),
                                [](const SupplierSpec& supplier) { return !supplier.reconcile.empty(); });
}

void ReconcileChecker::OnSavedStateRead(const StateKey& key, const ActionState* saved, size_t trace_index) {
  if (!any_reconciler_) return;  // nothing will read it
  reads_[key] = Read{saved != nullptr ? saved->call_results : std::vector<CallResult>{}, trace_index, {}};
}

const CallResult* ReconcileChecker::SavedSlot(const CallIdentity& call) const {
  auto read = reads_.find(call.state_key);
  if (read == reads_.end() || call.call_index < 0 ||
      static_cast<size_t>(call.call_index) >= read->second.slots.size()) {
    return nullptr;
  }
  if (read->second.discarded_from >= 0 && call.call_index >= read->second.discarded_from) return nullptr;
  const CallResult& slot = read->second.slots[static_cast<size_t>(call.call_index)];
  if (slot.function_id != call.function || slot.args_digest != call.args_digest) return nullptr;
  return &slot;
}

void ReconcileChecker::OnSavedCallMismatch(const CallIdentity& call, const CallArgument& /*argument*/,
                                           const CallResult& saved, size_t /*trace_index*/) {
  if (saved.function_id == call.function && saved.args_digest == call.args_digest) return;  // the very call
  DURASIM_CHECK_GE(call.call_index, 0);  // OnRecordAppended reads the discard's index as a position
  if (!any_reconciler_) return;  // nothing will read it
  Read& read = reads_[call.state_key];
  if (read.discarded_from < 0 || call.call_index < read.discarded_from) read.discarded_from = call.call_index;
  discards_.insert_or_assign({lineage_, call.state_key},
                             CallIdentity{call.state_key, call.call_index, saved.function_id, saved.args_digest});
}

void ReconcileChecker::OnReconciled(const CallIdentity& call, const CallResult& /*slot*/, ReconcileAnswer answer,
                                    const std::optional<CallResult>& /*saved*/, size_t trace_index) {
  // The reads were kept for this (OnSavedStateRead): only a supplier with a
  // reconciler is reconciled.
  DURASIM_CHECK_MSG(any_reconciler_, "call " + call.ToString() + " reconciled, but no supplier has a reconciler");
  const CallResult* saved = SavedSlot(call);
  const size_t read_line = reads_.count(call.state_key) ? reads_.at(call.state_key).trace_index : 0;
  if (saved == nullptr || saved->status != CallStatus::kPending) {
    std::vector<size_t> evidence;
    if (read_line > 0) evidence.push_back(read_line);
    evidence.push_back(trace_index);
    Violate(Invariant::kReconcile,
            fmt::format("the reconciler of {} was asked about call [{}], whose saved slot is {}: a reconciler is "
                        "asked only about a PENDING slot of the very call",
                        call.function, call.ToString(),
                        saved == nullptr ? "not that call (none, or another function or argument)"
                                         : CallStatusName(saved->status)),
            evidence);
  }
  reads_[call.state_key].asked.insert(call.call_index);
  // Its latest answer counts: a later not done or unknown takes back a done.
  if (answer == ReconcileAnswer::kDone) {
    done_[{lineage_, call}] = trace_index;
  } else {
    done_.erase({lineage_, call});
  }
}

void ReconcileChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded,
                                        size_t /*trace_index*/) {
  // Only a reconciled supplier's call reads the slots back (OnSupplierCall),
  // and the reconciled suppliers are known from the start.
  if (decoded == nullptr || reconciled_.empty()) return;
  const std::vector<CallResult>& slots = decoded->state.call_results;
  latest_slots_[{lineage_, decoded->state_key}] = slots;
  // The runtime's next record of a state past a mismatch: its own put's,
  // in the mismatching attempt, or, when that attempt crashed before such a
  // put was appended, the state's first put in a later attempt of the
  // lineage (a crash ends every put, so a record found at the next
  // attempt's start is nobody's put). If it no longer holds the discarded
  // saved call, the discard is durable, and a run that restores it makes
  // the calls from there as new ones, so a done answer about them no longer
  // stands. A record the store wrote on its own (a rewrite) decides nothing.
  auto discard = discards_.find({lineage_, decoded->state_key});
  if (discard == discards_.end() || !runtime_puts_.InFlight(decoded->state_key)) return;
  const CallIdentity& saved = discard->second;
  const size_t at = static_cast<size_t>(saved.call_index);
  const bool kept =
      at < slots.size() && slots[at].function_id == saved.function && slots[at].args_digest == saved.args_digest;
  if (!kept) {
    std::erase_if(done_, [&](const auto& entry) {
      const auto& [lineage, call] = entry.first;
      return lineage == lineage_ && call.state_key == saved.state_key && call.call_index >= saved.call_index;
    });
  }
  discards_.erase(discard);
}

void ReconcileChecker::OnSupplierCall(const CallIdentity& call, const CallArgument& /*argument*/, size_t trace_index) {
  if (reconciled_.count(call.function) == 0) return;
  const auto latest = latest_slots_.find({lineage_, call.state_key});
  const bool slot_saved =
      latest != latest_slots_.end() && call.call_index >= 0 &&
      static_cast<size_t>(call.call_index) < latest->second.size() &&
      latest->second[static_cast<size_t>(call.call_index)] ==
          CallResult{call.function, call.args_digest, CallStatus::kPending, 0, ""};
  if (stored_ && !slot_saved) {
    Violate(Invariant::kReconcile,
            fmt::format("supplier {} was called for call [{}] before the log held its PENDING slot: a crash while it "
                        "is in flight would leave its reconciler nothing to be asked about",
                        call.function, call.ToString()),
            {trace_index});
  }
  // Past the first saved slot that was not its call, every call is a new
  // one (Flink Agents' mismatch rule), also one a reconciler reported done.
  auto read = reads_.find(call.state_key);
  if (read != reads_.end() && read->second.discarded_from >= 0 && call.call_index >= read->second.discarded_from) {
    return;
  }
  if (auto done = done_.find({lineage_, call}); done != done_.end()) {
    Violate(Invariant::kReconcile,
            fmt::format("supplier {} was called for call [{}], which its reconciler reported done at #{}: a call the "
                        "reconciler reports done is never made again",
                        call.function, call.ToString(), done->second),
            {done->second, trace_index});
    return;
  }
  const CallResult* saved = SavedSlot(call);
  if (saved == nullptr || saved->status != CallStatus::kPending) return;
  if (read->second.asked.count(call.call_index) > 0) return;
  Violate(Invariant::kReconcile,
          fmt::format("supplier {} was called again for call [{}], whose saved slot is PENDING, without asking its "
                      "reconciler whether the call already completed",
                      call.function, call.ToString()),
          {read->second.trace_index, trace_index});
}

}  // namespace durasim
