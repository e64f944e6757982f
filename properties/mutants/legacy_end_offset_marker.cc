// LegacyEndOffsetMarkerStore implementation.
#include "properties/mutants/legacy_end_offset_marker.h"

namespace durasim {

Result<RecoveryMarker> LegacyEndOffsetMarkerStore::GetRecoveryMarker(const CompletedBoundaries& completed) {
  Result<std::vector<PartitionOffsets>> offsets = client_.Offsets();
  if (!offsets.ok()) return offsets.status();
  // Versioned, named and numbered like the production marker: only the
  // offsets are wrong.
  Result<RecoveryMarker> production = KafkaActionStateStore::GetRecoveryMarker(completed);
  if (!production.ok()) return production.status();
  RecoveryMarker marker = *production;
  for (int32_t p = 0; p < static_cast<int32_t>(offsets->size()); ++p) marker.offsets[p] = (*offsets)[p].end;
  return marker;
}

StoreFactory LegacyEndOffsetMarkerStores() {
  return StoreByDesign(StoreOf<LegacyEndOffsetMarkerStore>(), StoreOf<FlussEndOffsetMarkerStore>());
}

}  // namespace durasim
