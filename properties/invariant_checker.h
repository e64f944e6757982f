// InvariantChecker: the base of the invariant checkers. Each checker watches
// a run through the RunObserver events, reports a violation the moment it
// sees one (naming the invariant, the call or input, and the trace events
// that prove it), and gets a last look when the run ends.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/invariant.h"
#include "model/keyed_state.h"
#include "model/observer.h"
#include "model/trace.h"

namespace durasim {

struct Violation {
  Invariant invariant = Invariant::kOnce;
  std::string message;
  // The trace events the message cites (its `#N` lines), in its order (the
  // timeline links them); empty for a violation the runner adds.
  std::vector<size_t> evidence = {};
};

// What a checker learns only when the run is over.
struct RunEnding {
  bool all_inputs_finished = false;  // the last attempt finished every input
  // The outputs of the same scenario without faults, by (input offset, index).
  std::map<std::pair<int64_t, int64_t>, int64_t> reference_outputs;
  // The run without faults finished every input; false when a durable call
  // failed it over (`on_error: fail`), and its answer stops there.
  bool reference_finished = true;
  std::string reference_failed_key;  // when not finished: the input key of the call that failed it over
  // Each key's memory at the end of the run without faults, and at the end
  // of this run's last attempt when it finished every input.
  MemoryByKey reference_memory;
  MemoryByKey final_memory;
  // The last attempt failed over on a durable call failure (the error), or "".
  std::string failed_by_call;
  std::string failed_by_call_key;  // the input key of that call
};

class InvariantChecker : public RunObserver {
 public:
  explicit InvariantChecker(const Trace& trace) : trace_(trace) {}
  virtual void Finish(const RunEnding& /*ending*/) {}
  const std::vector<Violation>& violations() const { return violations_; }

 protected:
  // Records a violation citing the given trace events.
  void Violate(Invariant invariant, const std::string& message, std::vector<size_t> evidence);

 private:
  const Trace& trace_;
  std::vector<Violation> violations_;
};

// The invariants `violations` name, each once, in the order they first appear.
std::vector<Invariant> InvariantsOf(const std::vector<Violation>& violations);

}  // namespace durasim
