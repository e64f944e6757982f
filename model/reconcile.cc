// The reconciler answer table.
#include "model/reconcile.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(ReconcileAnswer answer) {
  switch (answer) {
    case ReconcileAnswer::kTruth:
      return EnumInfo{"truth", "what the supplier did: done with its last outcome for the call, else not done"};
    case ReconcileAnswer::kDone: return EnumInfo{"done", "the call completed: its outcome is saved and used"};
    case ReconcileAnswer::kNotDone: return EnumInfo{"not_done", "the call never reached the outside world: made again"};
    case ReconcileAnswer::kUnknown: return EnumInfo{"unknown", "the reconciler cannot tell: the call fails"};
  }
  return std::nullopt;
}

}  // namespace durasim
