// Mutant fluss-cache-not-cleared: a rebuild does not clear the cache
// before it reads. The states cached before the restore stay, beside those
// read from the marker, although the marker does not vouch for them.
// Flink Agents 0.3.0's Fluss store clears the cache first; its Kafka store,
// in every version the research notes read, does not (research notes 27,
// questions 1 and 4). A rebuild that fails still leaves the cache empty.
#pragma once

#include "store/fluss_action_state_store.h"

namespace durasim {

class FlussCacheNotClearedStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  void ClearCacheBeforeRebuild() override;
};

}  // namespace durasim
