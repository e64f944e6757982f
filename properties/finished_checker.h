// Invariant: finished stays finished. After restoring a checkpoint, no
// action of an input finished at that checkpoint runs again; an action
// whose completed state was persisted is replayed from it, not re-executed.
#pragma once

#include <map>
#include <set>

#include "properties/invariant_checker.h"

namespace durasim {

class FinishedChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int attempt) override;
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnRestore(const RestoreView& restore, size_t trace_index) override;
  void OnActionExecuted(const TaskView& task, size_t trace_index) override;

 private:
  std::map<StateKey, size_t> completed_persisted_;  // state key -> trace index of the append
  std::optional<RestoreView> restore_;
  size_t restore_index_ = 0;
};

}  // namespace durasim
