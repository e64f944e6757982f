// Invariant: same answer. The outputs, de-duplicated by (input, output
// index), never disagree with each other, and equal those of the same
// scenario run without faults once every input has finished.
#pragma once

#include <map>
#include <utility>

#include "properties/invariant_checker.h"

namespace durasim {

class SameAnswerChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) override;
  void Finish(const RunEnding& ending) override;

  // De-duplicated outputs in (input, index) order.
  const std::map<std::pair<int64_t, int64_t>, int64_t>& outputs() const { return outputs_; }

 private:
  std::map<std::pair<int64_t, int64_t>, int64_t> outputs_;
  std::map<std::pair<int64_t, int64_t>, size_t> first_seen_;
};

}  // namespace durasim
