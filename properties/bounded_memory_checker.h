// Invariant: bounded memory. Once every input has finished and a completed
// checkpoint covers them all, the store holds no state and no per-key
// bookkeeping, and the runtime holds no per-checkpoint map.
#pragma once

#include "properties/invariant_checker.h"

namespace durasim {

class BoundedMemoryChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnQuiescent(const StoreStats& store, size_t runtime_bookkeeping, bool all_pruned, size_t trace_index) override;
};

}  // namespace durasim
