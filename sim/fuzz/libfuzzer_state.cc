// libFuzzer entry point of the state target (sim/fuzz/fuzz_targets.h), built
// only with -DDURASIM_LIBFUZZER=ON and clang (docs/fuzzing.md). A broken
// property aborts, which libFuzzer reports as a crash with its input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const durasim::TargetResult result =
      durasim::RunStateTarget(std::string(reinterpret_cast<const char*>(data), size));
  if (!result.problem.empty()) {
    std::fprintf(stderr, "fuzz: %s\n", result.problem.c_str());
    std::abort();
  }
  return 0;
}
