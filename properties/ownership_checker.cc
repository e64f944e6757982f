// OwnershipChecker implementation.
#include "properties/ownership_checker.h"

#include "store/check.h"
#include "store/format.h"

namespace durasim {

void OwnershipChecker::Report(const std::string& key, const std::string& message, std::vector<size_t> evidence) {
  if (!reported_.insert(key).second) return;
  Violate(Invariant::kOwnership, message, std::move(evidence));
}

void OwnershipChecker::OnKeyResumed(const std::string& key, int32_t subtask, int32_t owner, size_t trace_index) {
  if (subtask != owner) {
    Report(key,
           fmt::format("subtask {} resumed in-flight key {:?} after the restore, but subtask {} owns it", subtask,
                       key, owner),
           {trace_index});
    return;
  }
  auto [first, inserted] = resumed_.emplace(key, std::make_pair(subtask, trace_index));
  if (!inserted) {
    Report(key,
           fmt::format("in-flight key {:?} was resumed twice after the restore (by subtask {}, then by subtask {})",
                       key, first->second.first, subtask),
           {first->second.second, trace_index});
  }
}

void OwnershipChecker::OnProcessingKeysSnapshotted(int32_t subtask, const std::vector<std::string>& keys,
                                                   const std::vector<int32_t>& owners, size_t trace_index) {
  DURASIM_CHECK_EQ(keys.size(), owners.size());  // one owner per key, in the keys' order
  std::set<std::string> seen;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (owners[i] != subtask) {
      Report(keys[i],
             fmt::format("subtask {} snapshotted processing key {:?}, which subtask {} owns: a stale entry of the "
                         "union list",
                         subtask, keys[i], owners[i]),
             {trace_index});
    } else if (!seen.insert(keys[i]).second) {
      Report(keys[i], fmt::format("subtask {} snapshotted processing key {:?} twice", subtask, keys[i]),
             {trace_index});
    }
  }
}

}  // namespace durasim
