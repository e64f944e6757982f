// MemoryInOperatorStateRuntime implementation.
#include "properties/mutants/memory_in_operator_state.h"

#include "model/key_groups.h"

namespace durasim {

KeyedStates MemoryInOperatorStateRuntime::RestoredKeyedStates(const Checkpoint& checkpoint) const {
  KeyedStates owned = AgentRuntime::RestoredKeyedStates(checkpoint);
  for (auto& [key, keyed] : owned) {
    // The bug: the memory stayed with the subtask that held the key when the
    // checkpoint was taken.
    const int32_t held_by = SubtaskOfKey(key, subtask().max_parallelism, checkpoint.parallelism);
    if (held_by != subtask().index) keyed.memory.clear();
  }
  return owned;
}

}  // namespace durasim
