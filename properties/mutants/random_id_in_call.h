// Mutant random-id-in-call: a durable call's identity embeds something made
// per attempt (apache/flink-agents #964: a request id regenerated on
// restore). Here the argument digest is mixed with the attempt number, so a
// saved call result never matches its call after a restore and the call is
// made again.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class RandomIdInCallRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  uint64_t CallDigest(const std::string& function, const CallArgument& arg) const override;
};

}  // namespace durasim
