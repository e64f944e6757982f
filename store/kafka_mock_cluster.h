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
// Thread-safety: the fault controls may be called from any thread, one at a
// time (pristine() notes their use).
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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
  // The same for the next OffsetCommit request `broker_id` (the group's
  // coordinator) receives: a commit that is answered `delay` late.
  Status PushOffsetCommitAnswer(int32_t broker_id, rd_kafka_resp_err_t err, std::chrono::milliseconds delay);
  // Closes the broker's listener and connections; its data stays.
  Status BrokerDown(int32_t broker_id);
  Status BrokerUp(int32_t broker_id);
  // Delays every response of `broker_id` (-1: all brokers).
  Status SetRtt(int32_t broker_id, std::chrono::milliseconds rtt);

  // Whether no fault control was ever used on it (no error or answer
  // pushed, no rtt set, no broker taken down): then it holds nothing of
  // its past users but their topics and the offsets committed for them,
  // and serves a new user that picks a topic name of its own as a fresh
  // cluster would. The mock cannot clear a broker's error stack (an empty
  // one still shadows the cluster's), so a faulted cluster is never clean
  // again.
  bool pristine() const { return !faulted_; }

 private:
  KafkaMockCluster(rd_kafka_t* owner, rd_kafka_mock_cluster_s* cluster);

  // The next request of `api_key` that `broker_id` receives is answered with
  // `err`, `delay` later (`what` names the request in the error text).
  Status PushAnswer(int32_t broker_id, int16_t api_key, rd_kafka_resp_err_t err, std::chrono::milliseconds delay,
                    std::string_view what);

  // Runs one control of the mock (`control` returns its error code), at
  // least kControlSpacing after the previous one ended. librdkafka 2.0.2's
  // mock thread can lose the wake-up of a control that arrives right after
  // it answered the one before (it serves its queue, then empties its
  // wake-up pipe, which may hold the new control's byte by then) and then
  // sleeps up to its 1 s poll timeout before it sees the control: a broker
  // brought back up right after it was taken down stayed down for a second
  // of wall time now and then, its clients reconnecting every millisecond.
  template <typename Control>
  rd_kafka_resp_err_t Spaced(Control control);

  rd_kafka_t* owner_;
  rd_kafka_mock_cluster_s* cluster_;
  std::string bootstrap_servers_;
  bool faulted_ = false;  // pristine()
  std::chrono::steady_clock::time_point last_control_end_{};  // Spaced
};

}  // namespace durasim
