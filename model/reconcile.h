// Reconcilers (Flink Agents' durable calls with a reconciler): after a
// restore, a durable call whose saved slot is PENDING (started, no result
// persisted) is not simply made again: its supplier's reconciler is asked
// what the outside world did. Done: the call completed, with the outcome it
// had (reused and saved, never made again). Not done: it is made again.
// Unknown: the call fails, and the failure is saved as its result. A
// reconciler is asked only about a PENDING slot of the very call (same
// function and argument digest); a slot of another call starts a new call.
#pragma once

#include <optional>

#include "model/enum_table.h"

namespace durasim {

// What a scenario scripts for a supplier's reconciler, answer by answer
// (`reconcile:` in docs/scenarios.md), and what an asking resolves to: a
// scripted `truth` resolves to done or not done by what the supplier did.
enum class ReconcileAnswer {
  kTruth,    // scripted only: done with the outcome of the call's last invocation, else not done
  kDone,     // the call completed: its outcome is saved and used, the supplier is not called
  kNotDone,  // the call never reached the outside world: it is made again
  kUnknown,  // the reconciler cannot tell: the call fails, and the failure is saved
};

std::optional<EnumInfo> EnumInfoOf(ReconcileAnswer answer);

}  // namespace durasim
