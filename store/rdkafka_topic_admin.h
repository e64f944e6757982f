// Topic administration for the librdkafka client (rdkafka_log_client.h):
// checking the topic (creating it with the admin API when configured) and
// querying the watermark offsets of its partitions. Every call is bounded by
// `RdKafkaConfig::deadline` of wall-clock time.
#pragma once

#include <cstdint>
#include <vector>

#include "store/log_client.h"
#include "store/rdkafka_config.h"
#include "store/rdkafka_producer.h"
#include "store/rdkafka_reader.h"

namespace durasim {

// The partition count of `config.topic`, asked through `reader`'s consumer
// (which every client uses: the producer is made on the first write); a
// missing topic is created when `config.create_topic` is set. Errors:
// kInvalidArgument (partition-count mismatch, bad topic config), kNotFound
// (no such topic), kUnavailable (brokers or topic not usable within the
// deadline; the message names them).
Result<int32_t> CheckTopic(RdKafkaReader& reader, const RdKafkaConfig& config);

// Kafka's CreatePartitions: `config.topic` grows to `partitions`, asked
// through `producer`'s handle. Errors: kInvalidArgument (not more than it
// has), kUnavailable (the broker refused or did not answer in the deadline).
Status CreatePartitions(RdKafkaProducer& producer, const RdKafkaConfig& config, int32_t partitions);

// Kafka's DeleteRecords: the records of `partition` below `before_offset`
// leave the log and its start moves there, asked through `producer`'s
// handle. REQUIRES: before_offset within the partition's log. Errors:
// kUnavailable (the broker refused or did not answer in the deadline).
Status DeleteRecordsBefore(RdKafkaProducer& producer, const RdKafkaConfig& config, int32_t partition,
                           int64_t before_offset);

// Kafka's DeleteTopics for `config.topic`, then waits until the broker's
// metadata no longer lists it (a deletion completes asynchronously), so
// that a topic created under the name next is a new one. Errors:
// kUnavailable (refused, or still listed at the deadline).
Status DeleteTopicAndWait(RdKafkaProducer& producer, const RdKafkaConfig& config);

// Start and end offsets of partitions [0, partitions), through `reader`'s
// consumer. A query that does not answer within the deadline is abandoned on
// its own thread, with the consumer (the reader gets a fresh one). Errors:
// kUnavailable naming the broker and topic.
Result<std::vector<PartitionOffsets>> QueryOffsets(RdKafkaReader& reader, const RdKafkaConfig& config,
                                                   int32_t partitions);

}  // namespace durasim
