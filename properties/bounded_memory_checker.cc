// BoundedMemoryChecker implementation.
#include "properties/bounded_memory_checker.h"

#include <fmt/format.h>

namespace durasim {

void BoundedMemoryChecker::OnQuiescent(const StoreStats& store, size_t runtime_bookkeeping, bool all_pruned,
                                       size_t trace_index) {
  if (!all_pruned) return;
  if (store.cached_states != 0 || store.bookkeeping_entries != 0 || runtime_bookkeeping != 0) {
    Violate("bounded-memory",
            fmt::format("nothing is live, yet the store caches {} states and {} per-key entries and the runtime "
                        "holds {} per-checkpoint maps",
                        store.cached_states, store.bookkeeping_entries, runtime_bookkeeping),
            {trace_index});
  }
}

}  // namespace durasim
