// ResumeUnownedKeysRuntime implementation.
#include "properties/mutants/resume_unowned_keys.h"

namespace durasim {

KeyedStates ResumeUnownedKeysRuntime::RestoredKeyedStates(const Checkpoint& checkpoint) const {
  KeyedStates restored = AgentRuntime::RestoredKeyedStates(checkpoint);
  for (const auto& [key, keyed] : checkpoint.keyed) {
    if (!keyed.tasks.empty()) restored.emplace(key, keyed);  // the bug: an in-flight key resumed whoever owns it
  }
  return restored;
}

}  // namespace durasim
