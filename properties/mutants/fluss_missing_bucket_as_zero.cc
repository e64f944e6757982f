// FlussMissingBucketAsZeroStore implementation.
#include "properties/mutants/fluss_missing_bucket_as_zero.h"

#include "store/check.h"

namespace durasim {

Result<RecoveryMarker> FlussMissingBucketAsZeroStore::GetRecoveryMarker(const CompletedBoundaries& completed) {
  Result<RecoveryMarker> production = FlussActionStateStore::GetRecoveryMarker(completed);
  if (!production.ok()) return production.status();
  Result<FlussMarker> every = FlussMarkerOf(*production);
  DURASIM_CHECK(every.ok() && ListsEveryBucket(*every));  // the production marker lists every bucket
  FlussMarker changed;  // the bug's undo state: only what moved
  for (const auto& [bucket, offset] : every->bucket_offsets) {
    auto before = previous_.find(bucket);
    if (before == previous_.end() || before->second != offset) changed.bucket_offsets[bucket] = offset;
  }
  previous_ = every->bucket_offsets;
  return RecoveryMarkerOf(changed);
}

Result<int64_t> FlussMissingBucketAsZeroStore::OffsetOfUnmarkedBucket(int32_t /*bucket*/,
                                                                      const FlussMarker& /*marker*/,
                                                                      int32_t /*bucket_count*/) const {
  return int64_t{0};  // the bug: read from offset 0 instead of refused
}

}  // namespace durasim
