// Invariant: same answer. The outputs, de-duplicated by (input, output
// index), never disagree with each other, and equal those of the same
// scenario run without faults once every input has finished; so does each
// key's final memory. A job that fails over for good on a durable call
// failure the run without faults did not have gives no answer at all. The
// outputs and memory of a key whose call a reconciler could not tell
// (answered unknown) are compared with nothing, and a failover on such a
// call is no missing answer.
#pragma once

#include <map>
#include <set>
#include <vector>
#include <string>
#include <utility>

#include "model/scenario.h"
#include "properties/invariant_checker.h"

namespace durasim {

class SameAnswerChecker : public InvariantChecker {
 public:
  // `inputs`: the scenario's, to tell which inputs a key's failure reaches.
  SameAnswerChecker(const Trace& trace, const std::vector<InputSpec>& inputs);
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) override;
  void OnMemoryWritten(const std::string& key, const std::string& slot, int64_t value, size_t trace_index) override;
  void OnReconciled(const CallIdentity& call, const CallResult& /*slot*/, ReconcileAnswer answer,
                    const std::optional<CallResult>& /*saved*/, size_t /*trace_index*/) override {
    if (answer == ReconcileAnswer::kUnknown) unknown_keys_.insert(call.state_key.key);
  }
  void Finish(const RunEnding& ending) override;

  // De-duplicated outputs in (input, index) order.
  const std::map<std::pair<int64_t, int64_t>, int64_t>& outputs() const { return outputs_; }

 private:
  std::map<std::pair<int64_t, int64_t>, int64_t> outputs_;
  std::map<std::pair<int64_t, int64_t>, size_t> first_seen_;
  std::map<std::pair<std::string, std::string>, size_t> last_memory_write_;  // (key, slot) -> trace index
  // The input keys a reconciler could not tell a call of: the call failed,
  // a failure the run without faults (which never reconciles) cannot have,
  // and whether it was saved decides what that key's later attempts see
  // (its memory, the call's next try). For the outputs of such a key's
  // inputs and its memory, neither the run without faults nor this run's
  // earlier outputs are a reference.
  std::set<std::string> unknown_keys_;
  std::vector<std::string> key_of_input_;  // by input offset
  bool Excused(int64_t input_offset) const;

  void CheckMemory(const RunEnding& ending);
};

}  // namespace durasim
