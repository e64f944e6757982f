// Which subtask owns each input key, at each parallelism: the table a
// person needs to write a rescale scenario that moves a key on purpose
// (`durasim keys`, and the head of `run --trace` when a run has more than
// one subtask). Flink's assignment (model/key_groups.h): key -> key group
// -> subtask.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/scenario.h"

namespace durasim {

struct KeyOwners {
  std::vector<std::string> keys;       // in first-seen order, each once
  std::vector<int32_t> parallelisms;   // ascending, each once
  int32_t max_parallelism = 128;
};

// The scenario's input keys and every parallelism its attempts run at.
KeyOwners KeyOwnersOf(const Scenario& scenario);

// One row per key: its key group, its subtask at each parallelism, and
// whether its owner changes between them ("moves").
// REQUIRES: 1 <= max_parallelism <= kMaxParallelismUpperBound, and every
// parallelism in [1, max_parallelism].
std::string KeyOwnersTable(const KeyOwners& owners);

}  // namespace durasim
