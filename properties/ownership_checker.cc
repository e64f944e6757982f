// OwnershipChecker implementation.
#include "properties/ownership_checker.h"

#include <fmt/format.h>

namespace durasim {

void OwnershipChecker::OnKeyResumed(const std::string& key, int32_t subtask, int32_t owner, size_t trace_index) {
  if (subtask != owner) {
    Violate(Invariant::kOwnership,
            fmt::format("subtask {} resumed in-flight key {:?} after the restore, but subtask {} owns it", subtask,
                        key, owner),
            {trace_index});
  }
  auto [first, inserted] = resumed_.emplace(key, trace_index);
  if (!inserted) {
    Violate(Invariant::kOwnership, fmt::format("in-flight key {:?} was resumed twice after the restore", key),
            {first->second, trace_index});
  }
}

}  // namespace durasim
