// Mutant worker-pool-skips-drain: with the worker-pool engine (`durable:
// {engine: worker_pool}`, apache/flink-agents #1119, PR #1147), the
// checkpoint barrier does not wait for the tasks workers have pulled. A
// pulled task has left its key's queue in keyed state and lives only in its
// worker's memory until the mailbox commits it, so the snapshot holds
// neither the task nor its result: a restore of that checkpoint finds the
// input's run in progress with the task gone, and nothing ever runs it (the
// input never finishes: liveness), which the PR avoids by draining at
// prepareSnapshotPreBarrier.
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class WorkerPoolSkipsDrainRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool DrainsAtBarrier() const override { return false; }
};

}  // namespace durasim
