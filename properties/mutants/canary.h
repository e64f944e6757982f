// Mutant canary: every output is off by one. Not a real bug: it must
// always be caught, which proves the checkers are alive.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class CanaryRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  int64_t OutputValue(int64_t acc) const override;
};

}  // namespace durasim
