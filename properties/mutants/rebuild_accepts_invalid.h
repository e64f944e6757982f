// Mutant rebuild-accepts-invalid: rebuild skips what it cannot use (marker
// partitions the topic does not have, offsets out of range, records it
// cannot decode) instead of failing, so a restore silently loses the states
// those records held.
#pragma once

#include "store/kafka_action_state_store.h"

namespace durasim {

class RebuildAcceptsInvalidStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  Status Rebuild(const RecoveryMarker& marker) override;
};

}  // namespace durasim
