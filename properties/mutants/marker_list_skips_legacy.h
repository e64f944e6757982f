// Mutant marker-list-skips-legacy: a rebuild drops every entry of the union
// list it does not take for a current marker, the version-1 (bare offset map)
// ones, instead of reading them (Flink Agents' rebuildState skips each
// recovery marker that is not a Map without a word). A list whose legacy
// entry holds the smallest offsets (a checkpoint an older store took, beside
// a newer entry) then rebuilds from the newer entry's offsets alone, past
// states the restore still needs: their calls are made again (once).
#pragma once

#include <vector>

#include "store/kafka_action_state_store.h"

namespace durasim {

class MarkerListSkipsLegacyStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;

  Status RebuildFromList(const std::vector<RecoveryMarker>& markers) override {
    std::vector<RecoveryMarker> current;
    for (const RecoveryMarker& marker : markers) {
      if (marker.version != RecoveryMarker::kLegacyVersion) current.push_back(marker);  // the bug
    }
    if (current.empty()) {  // nothing it recognises: an empty store
      ForgetRebuildState();
      return Status::Ok();
    }
    return KafkaActionStateStore::RebuildFromList(current);
  }
};

}  // namespace durasim
