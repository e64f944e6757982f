// LeakCheckpointMapOnAbortRuntime implementation.
#include "properties/mutants/leak_checkpoint_map_on_abort.h"

#include <algorithm>

namespace durasim {

void LeakCheckpointMapOnAbortRuntime::ReleaseAbortedCheckpoint(const std::string& id) {
  std::erase(pending_order_, id);  // the bug: pending_checkpoints_[id] stays
}

}  // namespace durasim
