// Invariant: ownership. A subtask's processing-key state (its entry of the
// union list, snapshotted at a checkpoint) holds only distinct keys it owns,
// and after a restore each in-flight key is resumed by exactly one subtask:
// its owner. A non-owner resuming it, or a key resumed twice, would run its
// queued actions in two places; a foreign or repeated entry is where that
// begins (apache/flink-agents #581, #824).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "properties/invariant_checker.h"

namespace durasim {

class OwnershipChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int /*attempt*/) override { resumed_.clear(); }
  void OnKeyResumed(const std::string& key, int32_t subtask, int32_t owner, size_t trace_index) override;
  void OnProcessingKeysSnapshotted(int32_t subtask, const std::vector<std::string>& keys,
                                   const std::vector<int32_t>& owners, size_t trace_index) override;

 private:
  // This attempt's resumes: key -> (subtask, restore line) of the first.
  std::map<std::string, std::pair<int32_t, size_t>> resumed_;
  std::set<std::string> reported_;  // keys already named in a violation
  // Violates once per key.
  void Report(const std::string& key, const std::string& message, std::vector<size_t> evidence);
};

}  // namespace durasim
