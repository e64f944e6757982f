// SubtaskContext: which subtask of the job a runtime is. The runtime keeps
// it (the keys it owns); the parts' runtime factories (model/parts.h) hand
// it over.
//
// Thread-safety: a plain value.
#pragma once

#include <cstdint>

namespace durasim {

// Which subtask of the job a runtime is: its index among `parallelism`
// subtasks over `max_parallelism` key groups.
struct SubtaskContext {
  int32_t index = 0;
  int32_t parallelism = 1;
  int32_t max_parallelism = 128;
};

}  // namespace durasim
