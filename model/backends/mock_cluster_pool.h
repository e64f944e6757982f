// The mock clusters the runs of one thread share, one after the other. A
// run on the mock backend used to start a librdkafka mock cluster of its own
// (a handle with its threads, connections and listener) and destroy it at
// its end. A cluster that no fault control touched during a run
// (KafkaMockCluster::pristine) holds nothing of it that a later run sees:
// its topics (names never used again), the producer ids it gave out and the
// offsets committed for its topics; the next run of the thread takes it
// instead of starting one. A cluster a run faulted (a broker taken down, an
// error or a delayed answer pushed, an rtt set) is destroyed, so is one on
// which the run met an infrastructure failure (RdKafkaBackend decides), and
// so is one that has served kRunsPerCluster runs, so that the topics a
// metadata request lists stay few.
//
// Thread-safety: each thread has its own pool; nothing is shared.
#pragma once

#include <memory>

#include "store/kafka_mock_cluster.h"
#include "store/status.h"

namespace durasim {

inline constexpr int kRunsPerCluster = 32;

struct PooledMockCluster {
  std::unique_ptr<KafkaMockCluster> cluster;
  int runs = 0;  // the runs it has served, the one it is taken for included
};

// This thread's kept cluster, or a new one with one broker.
Result<PooledMockCluster> TakeMockCluster();
// Keeps the cluster for this thread's next TakeMockCluster when it is
// pristine and has served fewer than kRunsPerCluster runs; destroys it
// otherwise. REQUIRES: no client of it is left.
void ReturnMockCluster(PooledMockCluster pooled);

}  // namespace durasim
