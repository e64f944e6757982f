// The topic incarnation over librdkafka's C API (rdkafka_topic_identity.h).
#include "store/rdkafka_topic_identity.h"

#include <memory>
#include <random>
#include <string>

#include "store/check.h"
#include "store/format.h"
#include "store/rdkafka_reader.h"
#include "store/rdkafka_support.h"

namespace durasim {
namespace {

// The committed offset of partition 0 under the identity group: >= 0, or
// negative when there is none.
Result<int64_t> Committed(rd_kafka_t* rk, const RdKafkaConfig& config) {
  rdkafka::PartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), config.topic.c_str(), 0);
  const rdkafka::Clock::time_point deadline = rdkafka::Clock::now() + config.deadline;
  const rd_kafka_resp_err_t err =
      rdkafka::CallInSlices(deadline, [&](int slice) { return rd_kafka_committed(rk, list.get(), slice); });
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR || list->elems[0].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    const rd_kafka_resp_err_t why = err != RD_KAFKA_RESP_ERR_NO_ERROR ? err : list->elems[0].err;
    return Status(StatusCode::kUnavailable, fmt::format("the incarnation of topic '{}' (group {}) at {}: {}",
                                                        config.topic, kTopicIdentityGroup, config.bootstrap_servers,
                                                        rdkafka::ErrorText(why)));
  }
  return list->elems[0].offset;
}

// The commit's answer comes on a queue of its own, waited for until the
// deadline: librdkafka 2.0.2's synchronous rd_kafka_commit waits with no
// timeout, so a broker that stopped answering after the request went out
// (frozen, not gone) held the run's thread for ever (seen in ctest
// infra_broker_stopped: a sweep hung in it for 300 s). A late answer is
// dropped with the queue (librdkafka holds its own reference to it); the
// handle's teardown still waits for the request (rdkafka_support.cc).
Status Commit(rd_kafka_t* rk, const RdKafkaConfig& config, int64_t incarnation) {
  rdkafka::PartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), config.topic.c_str(), 0)->offset = incarnation;
  const auto failed = [&](const std::string& why) {
    return Status(StatusCode::kUnavailable, fmt::format("committing the incarnation of topic '{}' (group {}) at {}: {}",
                                                        config.topic, kTopicIdentityGroup, config.bootstrap_servers,
                                                        why));
  };
  const rdkafka::Clock::time_point deadline = rdkafka::Clock::now() + config.deadline;
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue(rd_kafka_queue_new(rk), &rd_kafka_queue_destroy);
  // With a queue given, the answer is an event on it and no callback is served.
  if (const rd_kafka_resp_err_t err = rd_kafka_commit_queue(rk, list.get(), queue.get(), nullptr, nullptr);
      err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return failed(rdkafka::ErrorText(err));
  }
  rd_kafka_event_t* answer = rdkafka::PollAdminAnswer(queue.get(), deadline);
  if (answer == nullptr) {
    return rdkafka::AsInterrupted(failed(fmt::format("no answer within the {} ms deadline", config.deadline.count())));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event(answer, &rd_kafka_event_destroy);
  DURASIM_CHECK_EQ(rd_kafka_event_type(answer), RD_KAFKA_EVENT_OFFSET_COMMIT);  // nothing else is sent to it
  rd_kafka_resp_err_t err = rd_kafka_event_error(answer);
  if (const rd_kafka_topic_partition_list_t* committed = rd_kafka_event_topic_partition_list(answer);
      err == RD_KAFKA_RESP_ERR_NO_ERROR && committed != nullptr && committed->cnt > 0) {
    err = committed->elems[0].err;
  }
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return failed(rdkafka::ErrorText(err));
  return Status::Ok();
}

}  // namespace

Result<std::string> RdKafkaTopicIdentity::Incarnation() {
  const RdKafkaConfig& config = config_;
  Result<std::shared_ptr<RdKafkaConsumer>> consumer = reader_.Consumer();
  if (!consumer.ok()) return consumer.status();
  // Serve the error callbacks (no partition is assigned between reads, so
  // nothing else comes). A consumer that lost its broker connection since
  // (an outage) is replaced: it would wait for librdkafka to look the group
  // coordinator up again, about a second, where a fresh one does at once.
  if (rd_kafka_message_t* stray = rd_kafka_consumer_poll((*consumer)->rk, 0)) rd_kafka_message_destroy(stray);
  if ((*consumer)->TakeLostConnection()) {
    reader_.Reset();
    consumer = reader_.Consumer();
    if (!consumer.ok()) return consumer.status();
  }
  rd_kafka_t* rk = (*consumer)->rk;
  Result<int64_t> committed = Committed(rk, config);
  if (!committed.ok()) return committed.status();
  if (*committed < 0 && !config.mint_incarnation) {
    return Status(StatusCode::kNotFound,
                  fmt::format("topic '{}' at {} has no incarnation yet (no store has asked for one: nothing of "
                              "ours wrote a marker for it), and this client is read-only: it mints none",
                              config.topic, config.bootstrap_servers));
  }
  if (*committed < 0) {
    // No incarnation yet: a new topic (or one re-created). Mint one; when
    // two clients race, the commit read back below is the one both keep.
    std::random_device random;
    const int64_t minted = static_cast<int64_t>((static_cast<uint64_t>(random()) << 31) ^ random()) & ((int64_t{1} << 62) - 1);
    if (Status commit = Commit(rk, config, minted); !commit.ok()) {
      // A commit that got no answer (the deadline) is still pending, and
      // librdkafka starts no newly assigned partition of this consumer while
      // it is, so a read on it would wait too. The next use gets a fresh
      // consumer (after a refusal too, where it costs only a new handle);
      // this one is torn down in the background.
      reader_.Reset();
      return commit;
    }
    committed = Committed(rk, config);
    if (!committed.ok()) return committed.status();
    if (*committed < 0) {
      return Status(StatusCode::kUnavailable, fmt::format("the incarnation of topic '{}' committed at {} reads back "
                                                          "as none",
                                                          config.topic, config.bootstrap_servers));
    }
  }
  return fmt::format("group-offset-{}", *committed);
}

}  // namespace durasim
