// FreshStartReadsTopicRuntime implementation.
#include "properties/mutants/fresh_start_reads_topic.h"

#include "model/world.h"

namespace durasim {

void FreshStartReadsTopicRuntime::FreshStart() {
  // The store's marker names the topic it reads now; the bug reads each
  // partition from its log start.
  Result<RecoveryMarker> marker = store_.GetRecoveryMarker({});
  if (!marker.ok()) return;
  for (auto& [partition, offset] : marker->offsets) {
    offset = partition < world_.lifecycle().partitions() ? world_.lifecycle().start(partition) : 0;
  }
  (void)store_.Rebuild(*marker);
}

}  // namespace durasim
