// FinishedChecker implementation.
#include "properties/finished_checker.h"

#include "model/identity.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {

void FinishedChecker::OnAttemptStart(int /*attempt*/) {
  restore_.reset();
  completed_here_.clear();
}

void FinishedChecker::OnRecordAppended(const LogRecord& /*record*/, const DecodedState* decoded, size_t trace_index) {
  if (decoded == nullptr || !decoded->state.completed) return;
  completed_persisted_.emplace(std::make_pair(lineage_, stable_.Of(decoded->state_key)), trace_index);
  completed_values_.emplace(decoded->state_key, StateDigest(decoded->state_key, decoded->state));
}

void FinishedChecker::OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status,
                                  size_t trace_index) {
  // The put's record was appended (and decoded above) before its result.
  if (status.ok() && completed_values_.count({key, value_digest}) > 0) {
    completed_here_.emplace(std::make_pair(key, value_digest), trace_index);
  }
}

void FinishedChecker::OnGetHit(const StateKey& key, uint64_t value_digest, size_t trace_index) {
  auto here = completed_here_.find({key, value_digest});
  if (here == completed_here_.end()) return;
  Violate(Invariant::kFinished,
          fmt::format("a task replayed the completed state [{}] that this incarnation saved for another task: two "
                      "tasks share one state key",
                      DescribeStateKey(key)),
          {here->second, trace_index});
}

void FinishedChecker::OnRestore(const RestoreView& restore, size_t trace_index) {
  restore_ = restore;
  restore_index_ = trace_index;
}

void FinishedChecker::OnActionExecuted(const TaskView& task, size_t trace_index) {
  stable_.LearnTask(task);
  const StateKey k = stable_.Of(task.state_key);
  if (restore_.has_value()) {
    auto boundary = restore_->completed.find(k.key);
    if (boundary != restore_->completed.end() && k.seq <= boundary->second) {
      Violate(Invariant::kFinished,
              fmt::format("action {} ran again for input {} (key {:?} seq {}), finished at checkpoint {}", task.action,
                          task.input_offset, k.key, k.seq, restore_->checkpoint),
              {restore_index_, trace_index});
    }
  }
  auto completed = completed_persisted_.find({lineage_, k});
  if (completed != completed_persisted_.end()) {
    Violate(Invariant::kFinished,
            fmt::format("action {} re-executed for input {} (key {:?} seq {}) although its completed state was "
                        "persisted",
                        task.action, task.input_offset, k.key, k.seq),
            {completed->second, trace_index});
  }
}

}  // namespace durasim
