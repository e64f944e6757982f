// FlussMissingBucketAsZeroStore implementation.
#include "properties/mutants/fluss_missing_bucket_as_zero.h"

namespace durasim {

Result<int64_t> FlussMissingBucketAsZeroStore::OffsetOfUnmarkedBucket(int32_t /*bucket*/,
                                                                      const FlussMarker& /*marker*/,
                                                                      int32_t /*bucket_count*/) const {
  return int64_t{0};  // the bug: read from offset 0 instead of refused
}

}  // namespace durasim
