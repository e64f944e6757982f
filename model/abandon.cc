// Abandon implementation: one atomic function pointer.
#include "model/abandon.h"

#include <atomic>

namespace durasim {
namespace {

std::atomic<bool (*)()> source{nullptr};

}  // namespace

void SetAbandonSource(bool (*requested)()) { source.store(requested); }

bool AbandonRequested() {
  bool (*requested)() = source.load(std::memory_order_relaxed);
  return requested != nullptr && requested();
}

}  // namespace durasim
