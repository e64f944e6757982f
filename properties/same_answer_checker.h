// Invariant: same answer. The outputs, de-duplicated by (input, output
// index), never disagree with each other, and equal those of the same
// scenario run without faults once every input has finished; so does each
// key's final memory. A job that fails over for good on a durable call
// failure the run without faults did not have gives no answer at all. Once
// a reconciler answered unknown in a run, nothing more is compared in it.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "properties/invariant_checker.h"

namespace durasim {

class SameAnswerChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) override;
  void OnMemoryWritten(const std::string& key, const std::string& slot, int64_t value, size_t trace_index) override;
  void OnReconciled(const CallIdentity& /*call*/, const CallResult& /*slot*/, ReconcileAnswer answer,
                    const std::optional<CallResult>& /*saved*/, size_t /*trace_index*/) override {
    if (answer == ReconcileAnswer::kUnknown) reconciler_failed_ = true;
  }
  void Finish(const RunEnding& ending) override;

  // De-duplicated outputs in (input, index) order.
  const std::map<std::pair<int64_t, int64_t>, int64_t>& outputs() const { return outputs_; }

 private:
  std::map<std::pair<int64_t, int64_t>, int64_t> outputs_;
  std::map<std::pair<int64_t, int64_t>, size_t> first_seen_;
  std::map<std::pair<std::string, std::string>, size_t> last_memory_write_;  // (key, slot) -> trace index
  // A reconciler could not tell whether a call completed, so the call
  // failed: a failure the run without faults (which never reconciles)
  // cannot have, and whether it was saved decides what later attempts see
  // (the key's memory, the call's next try). From then on neither the run
  // without faults nor this run's earlier outputs are a reference.
  bool reconciler_failed_ = false;

  void CheckMemory(const RunEnding& ending);
};

}  // namespace durasim
