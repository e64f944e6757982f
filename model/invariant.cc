// The invariant table.
#include "model/invariant.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(Invariant invariant) {
  switch (invariant) {
    case Invariant::kOnce:
      return EnumInfo{"once", "a supplier never runs for a call whose terminal result was already in the log"};
    case Invariant::kFinished:
      return EnumInfo{"finished", "after a restore, no action of an input finished at that checkpoint runs again"};
    case Invariant::kSameAnswer:
      return EnumInfo{"same-answer", "de-duplicated outputs equal those of the same scenario run without faults"};
    case Invariant::kPhantomSave:
      return EnumInfo{"phantom-save", "a failed or cancelled write is never returned or reported saved"};
    case Invariant::kCancellation:
      return EnumInfo{"cancellation", "a cancelled wait reaches the caller and stays observable"};
    case Invariant::kInvalidRecovery:
      return EnumInfo{"invalid-recovery", "invalid recovery data is rejected with a clear error, never skipped"};
    case Invariant::kBoundedMemory:
      return EnumInfo{"bounded-memory", "store and runtime bookkeeping return to empty when nothing is live"};
    case Invariant::kPutLatency:
      return EnumInfo{"put-latency", "a put issued while the broker is up completes within ack_latency_ms"};
    case Invariant::kLiveness:
      return EnumInfo{"liveness", "after the faults stop, the run converges: every input finishes"};
    case Invariant::kDifferential:
      return EnumInfo{"differential", "a librdkafka backend tells the model's story, down to the trace"};
    case Invariant::kDeterminism:
      return EnumInfo{"determinism", "the same scenario gives the same trace every time"};
    case Invariant::kRetryBudget:
      return EnumInfo{"retry-budget", "the tries of one durable call never exceed its budget, across all attempts"};
    case Invariant::kProvenance:
      return EnumInfo{"provenance", "every call result an action uses was produced by the supplier for that very call"};
    case Invariant::kOwnership:
      return EnumInfo{"ownership", "a restored in-flight key is resumed by exactly one subtask, its owner"};
    case Invariant::kReconcile:
      return EnumInfo{"reconcile", "a PENDING call with a reconciler is reconciled before it is made again, only a "
                                   "PENDING one, and one reported done is never made again"};
  }
  return std::nullopt;
}

bool ExpectableInScenario(Invariant invariant) { return invariant != Invariant::kDeterminism; }

}  // namespace durasim
