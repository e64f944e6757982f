// RdKafkaReader: the reading room of the librdkafka client
// (rdkafka_log_client.h). A consumer in the topic identity's group that never
// joins or commits; Read assigns one partition at an absolute offset and
// fetches the range, ReadRanges assigns several partitions at once. The
// consumer is created on first use and replaced after a failed read, so that
// nothing of that read leaks into the next one.
//
// Thread-safety: none; one thread uses it. The consumer handle is shared with
// a watermark query that topic admin may abandon on its own thread
// (rdkafka_topic_admin.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/log_client.h"
#include "store/rdkafka_config.h"

namespace durasim {

// The consumer group of the reader's consumer: the topic identity's
// (rdkafka_topic_identity.h), whose committed offset it reads and commits on
// that handle. Named here, where the consumer is made, so that the reader
// does not include the identity that asks through it.
inline constexpr const char* kTopicIdentityGroup = "durasim.topic-identity";

// The consumer handle of Offsets and Read (rdkafka_support.h).
struct RdKafkaConsumer;

class RdKafkaReader {
 public:
  // REQUIRES: `config` outlives the reader.
  explicit RdKafkaReader(const RdKafkaConfig& config) : config_(config) {}

  // The consumer, created on first use. Errors: kInvalidArgument.
  Result<std::shared_ptr<RdKafkaConsumer>> Consumer();
  // Lets go of the consumer; the next use creates a fresh one. A query that
  // still holds it keeps its own reference.
  void Reset() { consumer_.reset(); }
  // The topic's partition count, once known; Read refuses others.
  void set_partition_count(int32_t partitions) { partitions_ = partitions; }

  // Records of `partition` with offsets in [from, to). Errors:
  // kInvalidArgument (bad range or partition), kInvalidRecovery (the range is
  // not in the log: below its start or past its end), kUnavailable.
  Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to);
  // The records of every range, read together: every partition is assigned
  // at once, so one fetch serves them all. The answer has one entry per
  // range, in order. Errors as Read's, naming the range that failed; two
  // ranges of one partition are kInvalidArgument.
  Result<std::vector<std::vector<LogRecord>>> ReadRanges(const std::vector<ReadRange>& ranges);

 private:
  const RdKafkaConfig& config_;
  int32_t partitions_ = 0;
  std::shared_ptr<RdKafkaConsumer> consumer_;
};

}  // namespace durasim
