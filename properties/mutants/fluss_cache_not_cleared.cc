// FlussCacheNotClearedStore implementation.
#include "properties/mutants/fluss_cache_not_cleared.h"

namespace durasim {

void FlussCacheNotClearedStore::ClearCacheBeforeRebuild() {}  // the bug: the old cache stays

}  // namespace durasim
