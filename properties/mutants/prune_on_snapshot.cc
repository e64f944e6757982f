// PruneOnSnapshotRuntime implementation.
#include "properties/mutants/prune_on_snapshot.h"

namespace durasim {

void PruneOnSnapshotRuntime::SnapshotTaken(const std::string& id) {
  auto taken = pending_checkpoints_.find(id);
  if (taken == pending_checkpoints_.end()) return;  // not taken: a crash at the barrier, or no marker
  for (const auto& [key, seq] : taken->second) store_.Prune(key, seq);  // the bug: before completion
}

}  // namespace durasim
