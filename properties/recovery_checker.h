// Invariant: invalid recovery data is rejected. A rebuild that had to read
// a record the harness corrupted must fail with a clear error.
#pragma once

#include "properties/invariant_checker.h"

namespace durasim {

class RecoveryChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnRebuild(const Status& status, bool marker_invalid_expected, bool corrupt_in_range,
                 size_t trace_index) override;
};

}  // namespace durasim
