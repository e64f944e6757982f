// Invariant: ownership. After a restore, each in-flight key of the union
// list of processing keys is resumed by exactly one subtask: its owner (the
// subtask whose key-group range holds the key). A non-owner resuming it, or
// a key resumed twice, would run its queued actions in two places.
#pragma once

#include <map>
#include <string>

#include "properties/invariant_checker.h"

namespace durasim {

class OwnershipChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int /*attempt*/) override { resumed_.clear(); }
  void OnKeyResumed(const std::string& key, int32_t subtask, int32_t owner, size_t trace_index) override;

 private:
  std::map<std::string, size_t> resumed_;  // key -> the restore line of its first resume, this attempt
};

}  // namespace durasim
