// Mutant cancel-as-failure: a durable call cancelled in flight (the task is
// being cancelled) is persisted as FAILED, as a catch-all around the
// supplier does with an InterruptedException. After the restore the
// action replays that failure instead of calling again.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class CancelAsFailureRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  boost::asio::awaitable<Status> CallCancelled(const StateKey& state_key, ActionState& state,
                                               const CallIdentity& call) override;
};

}  // namespace durasim
