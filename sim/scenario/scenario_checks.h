// Cross-checks on a scenario being parsed: the references between its parts
// (calls to declared suppliers, listeners to emitted event types, checkpoint
// ids between take, complete/abort and restore) and the absence of emit
// cycles. Each check fails with strict_yaml::Fail at the offending node. They
// run where the parser reaches what they need, so the first error in document
// order is the one reported.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"

namespace durasim::scenario_checks {

// A call's supplier must be declared (suppliers are parsed before actions).
void CheckSupplierDeclared(const std::vector<SupplierSpec>& suppliers, const std::string& name, SourcePos pos);

// One `on` entry of an action.
struct Listener {
  std::string action;
  std::string type;
  SourcePos pos;
};

// Every event type an action listens on, other than input, must be emitted by
// some action; otherwise the action can never run and the scenario tests nothing.
void CheckListenersHaveEmitters(const std::vector<ActionSpec>& actions, const std::vector<Listener>& listeners);

// An action whose events trigger it again, directly or through others,
// would make every run endless.
void CheckNoEmitCycles(const std::vector<ActionSpec>& actions);

// A `recall` reads a memory slot that some `memory` or `memory_add` step of
// some plan writes (the scenario's, or one an attempt deploys: memory
// outlives a plan). One that nothing writes always reads 0: a typo, named
// with the closest written slot.
void CheckRecallsReadWrittenSlots(const Scenario& scenario);

// What the attempt steps so far did to each checkpoint id.
class CheckpointLedger {
 public:
  // `checkpoint: <id>`: the id is not reserved and not taken before.
  void Take(const std::string& id, SourcePos pos);
  // `complete: <id>` / `abort: <id>`: once, after it was taken (in this or an
  // earlier attempt). Completing a checkpoint subsumes every checkpoint
  // taken before it and still pending, as Flink's coordinator does: those
  // can never complete (an abort of one is accepted, and changes nothing).
  void Complete(const std::string& id, SourcePos pos) { Finish(id, pos, State::kCompleted); }
  void Abort(const std::string& id, SourcePos pos) { Finish(id, pos, State::kAborted); }
  // `restore: <id>` of attempt `attempt` (0-based): an earlier attempt
  // completed it (or some checkpoint, for latest/previous). `attempts` is the
  // raw `attempts` sequence, to explain a restore of a checkpoint completed
  // only later.
  void CheckRestore(const std::string& id, SourcePos pos, size_t attempt, const YAML::Node& attempts) const;
  // Whether some attempt step took checkpoint `id`.
  bool Taken(const std::string& id) const { return checkpoints_.count(id) != 0; }
  // Whether some attempt step completed checkpoint `id`.
  bool Completed(const std::string& id) const {
    auto it = checkpoints_.find(id);
    return it != checkpoints_.end() && it->second.state == State::kCompleted;
  }

 private:
  enum class State { kTaken, kCompleted, kAborted, kSubsumed };
  struct Checkpoint {
    SourcePos taken_at;
    int64_t order = 0;  // the how-manieth checkpoint taken
    State state = State::kTaken;
    SourcePos finished_at;
    std::string subsumed_by;  // kSubsumed: the later checkpoint whose completion did it
  };

  void Finish(const std::string& id, SourcePos pos, State to);

  std::map<std::string, Checkpoint> checkpoints_;
  int64_t taken_ = 0;
};

}  // namespace durasim::scenario_checks
