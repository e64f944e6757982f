// The run without faults: a scenario's plan and inputs in one attempt, no
// fault, no checkpoint, no restore. What it answers is what every run of the
// scenario must answer (the `same-answer` invariant).
//
// Its store is InstantStateStore (model/instant_state_store.h): states in
// memory, every put acknowledged at once. The answer of the production
// runtime does not depend on how its states are persisted (but for a
// supplier's `fails: {nth}`, which counts invocations across keys:
// hand-written scenarios only); the test beside this file checks that
// against the production store on every scenario file and on generated
// scenarios.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "model/keyed_state.h"
#include "model/parts.h"
#include "model/scenario.h"
#include "model/scheduler.h"
#include "store/status.h"

namespace durasim {

// Outputs by (input offset, output index).
using OutputMap = std::map<std::pair<int64_t, int64_t>, int64_t>;

// What the run without faults answers.
struct Reference {
  OutputMap outputs;
  MemoryByKey memory;
  bool finished = true;  // false: a durable call failed the job over (on_error: fail)
  std::string failed_key = {};  // when not finished: the input key of the call that failed it over
};

// The answer of `plan` (null: the scenario's own) to the scenario's inputs,
// its one attempt bounded by `attempt_time_bound` of simulated time (or more
// when the scenario needs it). Errors: kInternal when the run did not
// finish (nor failed over on a durable call failure).
Result<Reference> ReferenceOf(const Scenario& scenario, const PlanSpec* plan, SimDuration attempt_time_bound,
                              const AttemptParts& parts = ReferenceParts());

// Where the answer under another plan (`b`) first differs from the
// scenario's plan's (`a`), or "" when they agree. They agree as
// `same-answer` compares a run with the run without faults: both fail over
// on a call failure or neither does; every output both emitted has one
// value; and when every input finished, the outputs and the final memory
// are the same (a job that failed over stopped at a moment where how far
// its other keys had got depends on timing).
std::string AnswerDifference(const Reference& a, const Reference& b);

// The answer without faults. A scenario whose attempts deploy other plans
// has one answer only when every plan gives it (AnswerDifference;
// docs/scenarios.md, "Plans"): a plan change is a new version of the agent
// that must answer the same, and recovery across the deployment must keep
// that answer. A plan that says what the scenario's or an earlier deployed
// plan says (model/same_content.h) is not run again. Errors: those of
// ReferenceOf, and kInvalidArgument (file:line:column) for a plan that
// answers differently.
Result<Reference> ReferenceOutputs(const Scenario& scenario, SimDuration attempt_time_bound,
                                   const AttemptParts& parts = ReferenceParts());

}  // namespace durasim
