// Mutant no-release-on-skipped-notification: a completion notice releases
// only its own checkpoint's per-checkpoint map, as Flink Agents' runtime
// does. Flink's notifications are best-effort: a checkpoint completed
// without notice, or subsumed before completing, keeps its entry for the
// life of the job.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class NoReleaseOnSkippedNotificationRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  void ReleaseSubsumedCheckpoints(const std::string& id) override;
};

}  // namespace durasim
