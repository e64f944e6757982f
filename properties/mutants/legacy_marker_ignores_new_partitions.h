// Mutant legacy-marker-ignores-new-partitions: a rebuild from a union list
// that holds a version-1 marker (the bare offset map an older store wrote)
// reads only the partitions that list names, as code written for the old
// format before a topic could gain partitions would: the current format's
// path reads a partition past the marker from its start, the legacy path
// does not (its reads are marker-ignores-new-partitions'). After partitions
// were added, keys that moved there wrote their states since the
// checkpoint; the restore misses them and their calls are made again
// (once). Only the pair reaches it: a restore that reads a version-1 marker
// (hand-made markers, no tombstones) and partitions added after its
// checkpoint (issue 32's aimed points).
#pragma once

#include <vector>

#include "properties/mutants/marker_ignores_new_partitions.h"

namespace durasim {

class LegacyMarkerIgnoresNewPartitionsStore : public MarkerIgnoresNewPartitionsStore {
 public:
  using MarkerIgnoresNewPartitionsStore::MarkerIgnoresNewPartitionsStore;

  Status RebuildFromList(const std::vector<RecoveryMarker>& markers) override;

 protected:
  Status ReadFromMarker(const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets) override;

 private:
  bool legacy_ = false;  // the list being rebuilt holds a version-1 marker
};

}  // namespace durasim
