// FinishedChecker implementation.
#include "properties/finished_checker.h"

#include <fmt/format.h>

#include "store/state_codec.h"

namespace durasim {

void FinishedChecker::OnAttemptStart(int /*attempt*/) { restore_.reset(); }

void FinishedChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded, size_t trace_index) {
  if (decoded != nullptr && decoded->state.completed) completed_persisted_.emplace(decoded->state_key, trace_index);
}

void FinishedChecker::OnRestore(const RestoreView& restore, size_t trace_index) {
  restore_ = restore;
  restore_index_ = trace_index;
}

void FinishedChecker::OnActionExecuted(const TaskView& task, size_t trace_index) {
  const StateKey& k = task.state_key;
  if (restore_.has_value()) {
    auto boundary = restore_->completed.find(k.key);
    if (boundary != restore_->completed.end() && k.seq <= boundary->second) {
      Violate(Invariant::kFinished,
              fmt::format("action {} ran again for input {} (key {:?} seq {}), finished at checkpoint {}", task.action,
                          task.input_offset, k.key, k.seq, restore_->checkpoint),
              {restore_index_, trace_index});
    }
  }
  auto completed = completed_persisted_.find(k);
  if (completed != completed_persisted_.end()) {
    Violate(Invariant::kFinished,
            fmt::format("action {} re-executed for input {} (key {:?} seq {}) although its completed state was "
                        "persisted",
                        task.action, task.input_offset, k.key, k.seq),
            {completed->second, trace_index});
  }
}

}  // namespace durasim
