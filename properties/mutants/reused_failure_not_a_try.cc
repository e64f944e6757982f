// ReusedFailureNotATryRuntime implementation.
#include "properties/mutants/reused_failure_not_a_try.h"

namespace durasim {

int64_t ReusedFailureNotATryRuntime::TriesOf(bool reused) const {
  return reused ? 0 : 1;  // the bug: a failure saved before the restore is not a try
}

}  // namespace durasim
