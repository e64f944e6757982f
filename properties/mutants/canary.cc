// CanaryRuntime implementation.
#include "properties/mutants/canary.h"

namespace durasim {

int64_t CanaryRuntime::OutputValue(int64_t acc) const { return acc + 1; }  // the bug

}  // namespace durasim
