// Mutant sync-fallback-skips-persist: without an executor for async calls
// (`durable: {async: sync_fallback}`), the runtime makes an async call
// synchronously by invoking the callable directly, outside the durable path:
// neither its PENDING slot nor its result is saved. A restored action makes
// it again, and a supplier with a reconciler is called before the log holds
// its PENDING slot (reconcile).
#pragma once

#include "model/agent_runtime.h"

namespace durasim {

class SyncFallbackSkipsPersistRuntime : public AgentRuntime {
 public:
  using AgentRuntime::AgentRuntime;

 protected:
  bool PersistsFallbackCall() const override { return false; }  // the bug
};

}  // namespace durasim
