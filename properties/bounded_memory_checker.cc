// BoundedMemoryChecker implementation.
#include "properties/bounded_memory_checker.h"

#include <algorithm>

#include "store/check.h"
#include "store/format.h"

namespace durasim {

void BoundedMemoryChecker::OnAttemptStart(int /*attempt*/) { pending_.clear(); }

void BoundedMemoryChecker::OnCheckpointTaken(const std::string& id, size_t /*trace_index*/) { pending_.push_back(id); }

void BoundedMemoryChecker::OnForeignStates(int32_t subtask, const std::vector<std::string>& keys,
                                           size_t trace_index) {
  DURASIM_CHECK(!keys.empty());  // reported only when there are some; the message names the first
  Violate(Invariant::kBoundedMemory,
          fmt::format("after a completed checkpoint subtask {} still caches states of {} key{} it does not own "
                      "(first: {:?}); no checkpoint of its will ever prune them",
                      subtask, keys.size(), keys.size() == 1 ? "" : "s", keys.front()),
          {trace_index});
}

void BoundedMemoryChecker::OnCheckpointNotified(const std::string& id, bool completed, size_t runtime_bookkeeping,
                                                size_t trace_index) {
  auto it = std::find(pending_.begin(), pending_.end(), id);
  if (it != pending_.end()) {
    // A completion subsumes every checkpoint taken before it.
    pending_.erase(completed ? pending_.begin() : it, it + 1);
  }
  if (!stored_ && runtime_bookkeeping > 0) {
    Violate(Invariant::kBoundedMemory,
            fmt::format("after checkpoint {} was {}, the runtime holds {} per-checkpoint maps though it has no store "
                        "to prune",
                        id, completed ? "completed" : "aborted", runtime_bookkeeping),
            {trace_index});
    return;
  }
  if (runtime_bookkeeping > pending_.size()) {
    Violate(Invariant::kBoundedMemory,
            fmt::format("after checkpoint {} was {}, the runtime holds {} per-checkpoint maps for {} pending "
                        "checkpoints",
                        id, completed ? "completed" : "aborted", runtime_bookkeeping, pending_.size()),
            {trace_index});
  }
}

void BoundedMemoryChecker::OnQuiescent(const StoreStats& store, size_t runtime_bookkeeping, bool all_pruned,
                                       size_t trace_index) {
  if (!all_pruned) return;
  if (store.cached_states != 0 || store.bookkeeping_entries != 0 || runtime_bookkeeping != 0) {
    Violate(Invariant::kBoundedMemory,
            fmt::format("nothing is live, yet the store caches {} states and {} per-key entries and the runtime "
                        "holds {} per-checkpoint maps",
                        store.cached_states, store.bookkeeping_entries, runtime_bookkeeping),
            {trace_index});
  }
}

}  // namespace durasim
