// CanaryRuntime implementation.
#include "properties/mutants/canary.h"

namespace durasim {

int64_t CanaryRuntime::OutputValue(int64_t acc) const {
  return static_cast<int64_t>(static_cast<uint64_t>(acc) + 1);  // the bug (wrapping: any input value is valid)
}

}  // namespace durasim
