// Mutant fresh-start-reads-topic: a fresh start (a new job, no checkpoint
// restored) rebuilds its store from the log start of every partition, as if
// it had restored a marker of all zeros, so the new job picks up the states
// an earlier job left in the topic and goes on with that job's saved call
// results instead of making its calls (docs/scenarios.md, "Lineages"). The
// bug class: a store or runtime that treats "no recovery marker" as "read
// everything", so a redeployed job reprocessing its inputs silently reuses
// stale answers of a job that ran before it.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class FreshStartReadsTopicRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  void FreshStart() override;
};

}  // namespace durasim
