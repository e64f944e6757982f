// KafkaMockCluster: librdkafka's in-process mock Kafka cluster, for tests of
// RdKafkaLogClient without a broker. The cluster hangs off a librdkafka handle
// of its own, so its data outlives the clients that connect to it: destroying
// a client and connecting a new one is a crash and a restart. Destroying the
// KafkaMockCluster destroys the cluster and its data.
//
// The mock keeps at most 5 MiB or 100000 batches per partition (older batches
// are dropped and the log start moves), ignores topic configs (no
// compaction) and does not deduplicate idempotent produces.
//
// Thread-safety: the fault controls may be called from any thread.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "store/status.h"

struct rd_kafka_mock_cluster_s;

namespace durasim {

class KafkaMockCluster {
 public:
  // A cluster of `brokers` brokers with ids 1..brokers, listening on loopback.
  static Result<std::unique_ptr<KafkaMockCluster>> Start(int brokers);
  ~KafkaMockCluster();
  KafkaMockCluster(const KafkaMockCluster&) = delete;
  KafkaMockCluster& operator=(const KafkaMockCluster&) = delete;

  const std::string& bootstrap_servers() const { return bootstrap_servers_; }

  // A topic with replication factor 1 (the mock needs no admin API).
  Status CreateTopic(const std::string& name, int32_t partitions);

  // The next `count` Produce requests, to any broker, fail with `err` (one
  // error per request, whatever it carries; producer retries consume them).
  void PushProduceErrors(size_t count, rd_kafka_resp_err_t err);
  // The next Produce request `broker_id` receives is answered with `err`,
  // `delay` later; with NO_ERROR it is handled (its records appended) first.
  // Once a broker has had such an answer pushed, librdkafka 2.0.2's mock
  // ignores PushProduceErrors for that broker: its own (empty) error stack
  // shadows the cluster's.
  Status PushProduceAnswer(int32_t broker_id, rd_kafka_resp_err_t err, std::chrono::milliseconds delay);
  // Closes the broker's listener and connections; its data stays.
  Status BrokerDown(int32_t broker_id);
  Status BrokerUp(int32_t broker_id);
  // Delays every response of `broker_id` (-1: all brokers).
  Status SetRtt(int32_t broker_id, std::chrono::milliseconds rtt);

 private:
  KafkaMockCluster(rd_kafka_t* owner, rd_kafka_mock_cluster_s* cluster);

  rd_kafka_t* owner_;
  rd_kafka_mock_cluster_s* cluster_;
  std::string bootstrap_servers_;
};

}  // namespace durasim
