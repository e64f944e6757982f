// Mutant fluss-missing-bucket-as-zero (apache/fluss #3838): Fluss's undo
// recovery persisted only the buckets whose offsets had changed, and a later
// restore read every bucket missing from that state from offset 0. Here the
// `fluss` store's marker lists only the buckets whose offset moved since the
// store's previous snapshot, and a rebuild reads a bucket the marker does not
// list from offset 0, where the production store lists every bucket and
// fails on a bucket-set mismatch. A read from 0 rereads records the marker
// left behind: where retention or DeleteRecords removed them, the restore of
// a valid checkpoint is rejected as data loss (invalid-recovery); where a
// new job started on an old job's table, it takes the old job's saved
// results as its own (provenance).
#pragma once

#include <cstdint>
#include <map>

#include "store/fluss_action_state_store.h"

namespace durasim {

class FlussMissingBucketAsZeroStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;
  Result<RecoveryMarker> GetRecoveryMarker(const CompletedBoundaries& completed) override;

 protected:
  Result<int64_t> OffsetOfUnmarkedBucket(int32_t bucket, const FlussMarker& marker,
                                         int32_t bucket_count) const override;

 private:
  std::map<int32_t, int64_t> previous_;  // every bucket's offset at the previous snapshot
};

}  // namespace durasim
