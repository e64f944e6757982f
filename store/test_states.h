// Test fixtures for the librdkafka store tests: a state key and a state
// that differs by a tag.
#pragma once

#include <cstdint>
#include <string>

#include "store/action_state.h"

namespace durasim {

inline StateKey Key(const std::string& key, int64_t seq) { return StateKey{key, seq, 0xe1, 0xa1}; }

inline ActionState State(int64_t tag) {
  ActionState state;
  state.call_results.push_back(CallResult{"llm", 0xabc, CallStatus::kSucceeded, tag, ""});
  state.memory_updates.push_back(MemoryUpdate{"slot", tag});
  return state;
}

}  // namespace durasim
