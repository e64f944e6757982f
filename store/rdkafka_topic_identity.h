// The incarnation of a topic on librdkafka 2.0.2, which exposes no topic ids
// (KIP-516's ids reach its API only in later releases): a topic deleted and
// created again under the same name must not pass for the old one.
//
// The incarnation is kept where Kafka itself forgets it with the topic: a
// committed offset of partition 0 under the consumer group
// `durasim.topic-identity`. The first client that finds none commits a
// fresh random number there and every client reads it back; the number is
// the incarnation. Kafka accepts any committed offset (it is not checked
// against the log) and keeps it through retention, DeleteRecords,
// compaction and added partitions, but deleting the topic deletes the
// offsets committed for its partitions, so a re-created topic has none and
// gets a new number. Limits: a group with no members loses its offsets after
// the broker's `offsets.retention.minutes` (7 days by default) without a
// commit; a topic idle that long looks re-created and its markers are
// rejected, an error and never silent acceptance.
//
// Internal to the librdkafka client (outside the determinism contract: the
// number is random and the calls block in wall-clock time).
#pragma once

#include <string>

#include "store/rdkafka_config.h"
#include "store/status.h"

struct rd_kafka_s;

namespace durasim {

class RdKafkaReader;

// Asks on the reader's consumer, which is in the identity group
// (kTopicIdentityGroup, rdkafka_reader.h): one handle for reads, offsets
// and the incarnation.
class RdKafkaTopicIdentity {
 public:
  // REQUIRES: `config` and `reader` outlive the object.
  RdKafkaTopicIdentity(const RdKafkaConfig& config, RdKafkaReader& reader) : config_(config), reader_(reader) {}
  RdKafkaTopicIdentity(const RdKafkaTopicIdentity&) = delete;
  RdKafkaTopicIdentity& operator=(const RdKafkaTopicIdentity&) = delete;

  // The incarnation of `config.topic` now, minting one when the topic has
  // none (unless `config.mint_incarnation` is off: then kNotFound). Errors:
  // kUnavailable (the group coordinator did not answer within the
  // deadline), kInvalidArgument (bad configuration).
  Result<std::string> Incarnation();

 private:
  const RdKafkaConfig& config_;
  RdKafkaReader& reader_;
};

}  // namespace durasim
