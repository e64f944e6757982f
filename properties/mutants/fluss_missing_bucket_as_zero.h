// Mutant fluss-missing-bucket-as-zero (apache/fluss #3838): a rebuild reads a
// table bucket that the recovery marker does not list from offset 0, where
// the production `fluss` store fails on the bucket-set mismatch. Fluss's undo
// recovery persisted only the buckets that had changed, and a later restore
// treated the missing ones as offset 0 (research notes 27, question 5). The
// read from offset 0 is then checked for data loss as any other.
#pragma once

#include "store/fluss_action_state_store.h"

namespace durasim {

class FlussMissingBucketAsZeroStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;

 protected:
  Result<int64_t> OffsetOfUnmarkedBucket(int32_t bucket, const FlussMarker& marker,
                                         int32_t bucket_count) const override;
};

}  // namespace durasim
