// RdKafkaConfig: how the librdkafka client (rdkafka_log_client.h) reaches
// its topic, and the wall-clock bounds of its calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace durasim {

struct RdKafkaConfig {
  std::string bootstrap_servers;  // "host:port[,host:port...]"
  std::string topic;
  int32_t expected_partitions = 0;  // 0: take what the topic has
  // The client uses partitions [0, partitions_visible) only (0: all): how
  // the harness shows a topic that has not grown yet where the broker cannot
  // add partitions (librdkafka's mock cluster: docs/backends.md).
  int32_t partitions_visible = 0;
  // Create the topic (compacted, `expected_partitions` partitions, replication
  // factor 1) with the admin API when it is missing.
  // REQUIRES: expected_partitions > 0 when set.
  bool create_topic = false;
  // With create_topic: the topic must not exist yet; one that does is
  // kInvalidArgument (a run that keeps its topic under a chosen name must
  // not write into, and restore from, another run's records).
  bool require_new_topic = false;
  // Whether the client may mint the topic's incarnation when it has none
  // (rdkafka_topic_identity.h), a commit in the identity group. Off: a
  // read-only client (durasim inspect); Topic() of a topic with no
  // incarnation is then kNotFound, and nothing is committed.
  bool mint_incarnation = true;
  // A topic it creates gets cleanup.policy=compact,delete with retention.ms
  // and retention.bytes -1 (the broker deletes nothing by time or size), so
  // that the admin API's DeleteRecords is allowed: Kafka refuses it on a
  // topic whose policy is compact alone (POLICY_VIOLATION).
  bool deletable = false;
  // Bound on every blocking call: connect, Flush, AwaitAck, Offsets, Read.
  std::chrono::milliseconds deadline{10'000};
  // The producer's message.timeout.ms; zero means `deadline`.
  std::chrono::milliseconds message_timeout{0};
  // The consumer's fetch.wait.max.ms: how long an empty fetch is held, which
  // is what reaching the end of a partition costs.
  std::chrono::milliseconds fetch_wait_max{20};
  // reconnect.backoff.ms and reconnect.backoff.max.ms of every handle: how
  // soon a client tries again to reach a broker it lost (a broker taken down
  // and brought back up).
  std::chrono::milliseconds reconnect_backoff{10};
  std::chrono::milliseconds reconnect_backoff_max{100};
  // The producer's message.send.max.retries; unset keeps librdkafka's
  // default (retry until message.timeout.ms). Idempotence needs it > 0.
  std::optional<int32_t> producer_retries;
};

// A process-wide request that every blocking call of the client end now, as
// at its deadline, with kCancelled ("interrupted"): a signal (the sim's
// interrupt handlers install it). Each call looks at it at least every
// quarter second (rdkafka_support.h, kBlockingSlice). Installed once, before
// any client runs; nullptr: never.
void SetRdKafkaInterruptSource(bool (*requested)());

}  // namespace durasim
