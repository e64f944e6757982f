// ResumeUnownedKeysRuntime implementation.
#include "properties/mutants/resume_unowned_keys.h"

#include <set>

namespace durasim {

KeyedStates ResumeUnownedKeysRuntime::RestoredKeyedStates(const Checkpoint& checkpoint) const {
  KeyedStates restored = AgentRuntime::RestoredKeyedStates(checkpoint);
  for (const auto& [key, keyed] : checkpoint.keyed) {
    if (!keyed.tasks.empty()) restored.emplace(key, keyed);  // the bug: an in-flight key resumed whoever owns it
  }
  return restored;
}

std::vector<std::string> ResumeUnownedKeysRuntime::RestoredProcessingKeys(const Checkpoint& checkpoint) const {
  std::set<std::string> all;  // the bug: every processing key of the union list, owned or not
  for (const std::vector<std::string>& keys : checkpoint.processing_keys) all.insert(keys.begin(), keys.end());
  return std::vector<std::string>(all.begin(), all.end());
}

}  // namespace durasim
