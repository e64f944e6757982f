// Keyed state of the agent runtime: what a checkpoint captures per input key.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/fifo.h"

namespace durasim {

struct InputRecord {
  int64_t offset = 0;  // position in the source
  std::string key;
  int64_t value = 0;
};

// An event that triggers actions. Its hash names it in state keys; it covers
// the event's origin (the emitting action's state and the emit index) so two
// sibling events with identical attributes still have distinct identities.
struct Event {
  std::string type;
  int64_t value = 0;
  uint64_t hash = 0;
};

// One action to run for one event of an input's run.
struct ActionTask {
  int64_t seq = 0;
  int64_t input_offset = 0;
  size_t action_index = 0;
  Event event;
};

struct KeyedState {
  int64_t seq = 0;                 // last sequence number assigned to this key
  int64_t last_completed_seq = 0;  // last sequence number whose run finished
  int64_t run_input_offset = -1;   // input of the run in progress, -1 if none
  int64_t run_outputs = 0;         // outputs the run in progress emitted so far
  Fifo<ActionTask> tasks;          // unfinished tasks of the run in progress, in order
  Fifo<InputRecord> pending_inputs;  // inputs waiting for the run in progress
  // Short-term memory: lives across the key's inputs, is checkpointed and
  // restored with the rest. An action's updates are applied when it
  // completes (or is replayed from its completed state), in step order.
  std::map<std::string, int64_t> memory;
};

using KeyedStates = std::map<std::string, KeyedState>;

// Each key's short-term memory, keys with no slot set left out: what "same
// answer" compares at the end of a run.
using MemoryByKey = std::map<std::string, std::map<std::string, int64_t>>;

inline MemoryByKey MemoryOf(const KeyedStates& keyed) {
  MemoryByKey memory;
  for (const auto& [key, state] : keyed) {
    if (!state.memory.empty()) memory[key] = state.memory;
  }
  return memory;
}

}  // namespace durasim
