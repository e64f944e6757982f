// Mutant legacy-end-offset-marker: the pre-#1158 recovery marker, the
// topic's end offsets at snapshot time. A state written before a checkpoint
// for an action still unfinished at it lies below the marker, so the next
// restore does not read it and the action calls its supplier again.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class LegacyEndOffsetMarkerStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;
};

}  // namespace durasim
