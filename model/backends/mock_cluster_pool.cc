// The per-thread mock cluster pool (mock_cluster_pool.h).
#include "model/backends/mock_cluster_pool.h"

#include <utility>

namespace durasim {
namespace {

// Destroyed when its thread ends (before static objects, for the main
// thread), which destroys the cluster.
thread_local PooledMockCluster kept;

}  // namespace

Result<PooledMockCluster> TakeMockCluster() {
  if (kept.cluster) {
    PooledMockCluster taken = std::move(kept);
    kept = PooledMockCluster{};
    ++taken.runs;
    return taken;
  }
  Result<std::unique_ptr<KafkaMockCluster>> started = KafkaMockCluster::Start(1);
  if (!started.ok()) return started.status();
  return PooledMockCluster{std::move(started).value(), 1};
}

void ReturnMockCluster(PooledMockCluster pooled) {
  if (!pooled.cluster || !pooled.cluster->pristine() || pooled.runs >= kRunsPerCluster || kept.cluster) return;
  kept = std::move(pooled);
}

}  // namespace durasim
