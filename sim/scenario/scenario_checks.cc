// Cross-checks on a scenario being parsed (what each checks: scenario_checks.h).
#include "sim/scenario/scenario_checks.h"

#include <algorithm>
#include <functional>
#include <set>

#include "sim/scenario/scenario_keywords.h"
#include "sim/suggest.h"
#include "sim/scenario/strict_yaml.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim::scenario_checks {
namespace {

using strict_yaml::Fail;
using strict_yaml::Join;
using strict_yaml::Quoted;
using strict_yaml::PosText;

// The first attempt whose steps contain `complete: <id>`, from the raw YAML:
// only needed to explain a failed restore, and later attempts are not parsed yet.
std::optional<size_t> FindCompletionAttempt(const YAML::Node& attempts, const std::string& id) {
  const std::string_view complete = StepKeywordOf(AttemptStep::Kind::kComplete);
  size_t i = 0;
  for (auto attempt_it = attempts.begin(); attempt_it != attempts.end(); ++attempt_it, ++i) {
    const YAML::Node attempt = *attempt_it;
    if (!attempt.IsMap()) continue;
    for (const auto& kv : attempt) {
      if (!kv.first.IsScalar() || kv.first.Scalar() != "steps" || !kv.second.IsSequence()) continue;
      for (const YAML::Node& step : kv.second) {
        if (!step.IsMap() || step.size() != 1) continue;
        const auto& only = *step.begin();
        if (only.first.IsScalar() && only.first.Scalar() == complete && only.second.IsScalar() &&
            only.second.Scalar() == id) {
          return i;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

void CheckSupplierDeclared(const std::vector<SupplierSpec>& suppliers, const std::string& name, SourcePos pos) {
  auto declared = [&](const SupplierSpec& s) { return s.name == name; };
  if (std::find_if(suppliers.begin(), suppliers.end(), declared) != suppliers.end()) return;
  Fail(pos, fmt::format("undefined supplier {} in call; declared suppliers: {}", Quoted(name),
                        Join(suppliers, [](const SupplierSpec& s) { return s.name; })));
}

void CheckListenersHaveEmitters(const std::vector<ActionSpec>& actions, const std::vector<Listener>& listeners) {
  std::set<std::string> emitted;
  for (const ActionSpec& action : actions) {
    for (const ActionStep& step : action.steps) {
      if (step.kind == ActionStep::Kind::kEmit) emitted.insert(step.name);
    }
  }
  for (const Listener& listener : listeners) {
    if (listener.type == kInputEventType || emitted.contains(listener.type)) continue;
    Fail(listener.pos, fmt::format("action '{}' listens on '{}', which no action emits; emitted types: {}",
                                   listener.action, listener.type,
                                   emitted.empty() ? std::string("none (only 'input' exists)")
                                                   : Join(emitted, [](const std::string& s) { return s; })));
  }
}

void CheckNoEmitCycles(const std::vector<ActionSpec>& actions) {
  enum class Mark { kNew, kOnPath, kDone };
  std::vector<Mark> marks(actions.size(), Mark::kNew);
  std::vector<std::string> path;
  std::function<void(size_t)> visit = [&](size_t index) {
    marks[index] = Mark::kOnPath;
    path.push_back(actions[index].name);
    for (const ActionStep& step : actions[index].steps) {
      if (step.kind != ActionStep::Kind::kEmit) continue;
      for (size_t next = 0; next < actions.size(); ++next) {
        if (std::find(actions[next].on.begin(), actions[next].on.end(), step.name) == actions[next].on.end()) continue;
        if (marks[next] == Mark::kOnPath) {
          path.push_back(actions[next].name);
          Fail(step.pos, fmt::format("action '{}' emits '{}', which triggers a cycle of actions ({}): every run "
                                     "would be endless",
                                     actions[index].name, step.name,
                                     Join(path, [](const std::string& name) { return name; })));
        }
        if (marks[next] == Mark::kNew) visit(next);
      }
    }
    path.pop_back();
    marks[index] = Mark::kDone;
  };
  for (size_t i = 0; i < actions.size(); ++i) {
    if (marks[i] == Mark::kNew) visit(i);
    DURASIM_CHECK(path.empty());  // each visit pops what it pushed
  }
}

void CheckRecallsReadWrittenSlots(const Scenario& scenario) {
  std::vector<const std::vector<ActionSpec>*> plans = {&scenario.actions};
  for (const AttemptSpec& attempt : scenario.attempts) {
    if (attempt.plan) plans.push_back(&attempt.plan->actions);
  }
  const std::set<std::string> written = scenario.MemorySlotsWritten();
  for (const std::vector<ActionSpec>* actions : plans) {
    for (const ActionSpec& action : *actions) {
      for (const ActionStep& step : action.steps) {
        if (step.kind != ActionStep::Kind::kRecall || written.contains(step.name)) continue;
        Fail(step.pos, fmt::format("recall of memory slot '{}' in action '{}': no memory or memory_add step writes it, "
                                   "so it always reads 0{}",
                                   step.name, action.name,
                                   DidYouMean(step.name, std::vector<std::string>(written.begin(), written.end()))));
      }
    }
  }
}

void CheckpointLedger::Take(const std::string& id, SourcePos pos) {
  if (id == kRestoreLatest || id == kRestorePrevious) {
    Fail(pos, fmt::format("checkpoint id '{}' is reserved: `restore: {}` names a checkpoint by its order", id, id));
  }
  if (id == kFinalCheckpoint) {
    Fail(pos, fmt::format("checkpoint id '{}' is reserved: the runner takes it after the last attempt", id));
  }
  Checkpoint taken{pos, ++taken_, State::kTaken, SourcePos{}, ""};
  auto [it, inserted] = checkpoints_.emplace(id, taken);
  if (!inserted) {
    Fail(pos, fmt::format("checkpoint id '{}' reused; first taken at {}", id, PosText(it->second.taken_at)));
  }
  // Each taken checkpoint has its own id: the order counts the ledger's entries.
  DURASIM_CHECK_EQ(static_cast<int64_t>(checkpoints_.size()), taken_);
}

void CheckpointLedger::Finish(const std::string& id, SourcePos pos, State to) {
  std::string_view verb = to == State::kCompleted ? "complete" : "abort";
  auto it = checkpoints_.find(id);
  if (it == checkpoints_.end()) {
    Fail(pos, fmt::format("cannot {} unknown checkpoint '{}': no earlier step takes it", verb, id));
  }
  Checkpoint& checkpoint = it->second;
  DURASIM_CHECK(checkpoint.order >= 1 && checkpoint.order <= taken_);
  if (checkpoint.state == State::kSubsumed) {
    if (to == State::kAborted) {
      // Its abort notice (Flink sends one for a checkpoint it drops as
      // subsumed): it is aborted now, as at run time (model/checkpoint.h).
      checkpoint.state = State::kAborted;
      checkpoint.finished_at = pos;
      return;
    }
    const Checkpoint& later = checkpoints_.at(checkpoint.subsumed_by);
    Fail(pos, fmt::format("cannot complete checkpoint '{}': the completion of '{}' (taken after it, at {}) "
                          "subsumed it at {}, and a subsumed checkpoint never completes",
                          id, checkpoint.subsumed_by, PosText(later.taken_at), PosText(checkpoint.finished_at)));
  }
  if (checkpoint.state != State::kTaken) {
    Fail(pos, fmt::format("cannot {} checkpoint '{}': it was already {} at {}", verb, id,
                          checkpoint.state == State::kCompleted ? "completed" : "aborted",
                          PosText(checkpoint.finished_at)));
  }
  checkpoint.state = to;
  checkpoint.finished_at = pos;
  if (to != State::kCompleted) return;
  for (auto& [other_id, other] : checkpoints_) {
    if (other.state != State::kTaken || other.order > checkpoint.order) continue;
    DURASIM_CHECK_NE(other_id, id);  // the completed one is no longer taken
    other.state = State::kSubsumed;
    other.finished_at = pos;
    other.subsumed_by = id;
  }
}

void CheckpointLedger::CheckRestore(const std::string& id, SourcePos pos, size_t attempt,
                                    const YAML::Node& attempts) const {
  if (attempt == 0) {
    Fail(pos, fmt::format("the first attempt cannot restore '{}': no earlier attempt took a checkpoint", id));
  }
  if (id == kRestoreLatest || id == kRestorePrevious) {
    // Resolved when the attempt starts, among the checkpoints that really
    // completed; one must be completed by an earlier attempt's script.
    for (const auto& [name, checkpoint] : checkpoints_) {
      if (checkpoint.state == State::kCompleted) return;
    }
    Fail(pos, fmt::format("cannot restore '{}': no earlier attempt completes a checkpoint", id));
  }
  auto it = checkpoints_.find(id);
  if (it == checkpoints_.end()) {
    Fail(pos, fmt::format("cannot restore checkpoint '{}': no earlier attempt takes it", id));
  }
  const Checkpoint& checkpoint = it->second;
  if (checkpoint.state == State::kAborted) {
    Fail(pos, fmt::format("cannot restore checkpoint '{}': it was aborted at {}", id, PosText(checkpoint.finished_at)));
  }
  if (checkpoint.state == State::kSubsumed) {
    Fail(pos, fmt::format("cannot restore checkpoint '{}': the completion of '{}' subsumed it at {}, so it never "
                          "completed",
                          id, checkpoint.subsumed_by, PosText(checkpoint.finished_at)));
  }
  if (checkpoint.state == State::kTaken) {
    if (std::optional<size_t> later = FindCompletionAttempt(attempts, id)) {
      Fail(pos, fmt::format("cannot restore checkpoint '{}' in attempt {}: it is completed only in "
                            "attempt {}; restore needs a checkpoint completed in an earlier attempt",
                            id, attempt + 1, *later + 1));
    }
    Fail(pos, fmt::format("cannot restore checkpoint '{}': it was taken at {} but never completed", id,
                          PosText(checkpoint.taken_at)));
  }
}

}  // namespace durasim::scenario_checks
