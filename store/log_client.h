// LogClient: the port between the Kafka action-state store and a log
// (the in-memory model, librdkafka's mock cluster, a real broker). The store
// logic is written once against this port.
//
// Thread-safety: none; one coroutine strand uses a client.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "store/status.h"

namespace durasim {

struct RecordPosition {
  int32_t partition = 0;
  int64_t offset = 0;
  bool operator==(const RecordPosition&) const = default;
};

struct LogRecord {
  int32_t partition = 0;
  int64_t offset = 0;
  std::string key;
  std::string value;
};

// The readable range of one partition: [start, end).
struct PartitionOffsets {
  int64_t start = 0;
  int64_t end = 0;
};

// Offsets [from, to) of one partition.
struct ReadRange {
  int32_t partition = 0;
  int64_t from = 0;
  int64_t to = 0;
};

// Which topic a client reads: its name and its incarnation. A topic deleted
// and created again under the same name is a new incarnation, with offsets
// that start over; the incarnation tells them apart (Kafka's topic id; on
// librdkafka 2.0.2, which has no topic ids, see rdkafka_topic_admin.h).
struct TopicIdentity {
  std::string name;
  std::string incarnation;
  bool operator==(const TopicIdentity&) const = default;
};

// What one fetch returned: records of [from, next_offset), in increasing
// offset order (compaction may leave gaps), and how long the fetch waited.
// A fetch that returned nothing and did not move (next_offset == from) made
// no progress: the log had nothing for it within its wait.
struct FetchResult {
  std::vector<LogRecord> records;
  int64_t next_offset = 0;
  std::chrono::milliseconds waited{0};
};

using ProduceTicket = uint64_t;

class LogClient {
 public:
  virtual ~LogClient() = default;

  virtual int32_t partition_count() const = 0;

  // Queues a record for `partition`. The record is not yet sent.
  virtual ProduceTicket Produce(int32_t partition, std::string key, std::string value) = 0;
  // Sends everything queued, without waiting for acknowledgements.
  virtual void Flush() = 0;
  // Waits for the acknowledgement of a produced record. Errors:
  // kNotPersisted (the log does not hold it), kPossiblyPersisted (unknown),
  // kCancelled (the caller's wait was cancelled; the record may be persisted).
  virtual boost::asio::awaitable<Result<RecordPosition>> AwaitAck(ProduceTicket ticket) = 0;

  // Start and end offsets of every partition, indexed by partition.
  virtual Result<std::vector<PartitionOffsets>> Offsets() = 0;
  // Records of `partition` with offsets in [from, to).
  virtual Result<std::vector<LogRecord>> Read(int32_t partition, int64_t from, int64_t to) = 0;
  // The topic this client reads and writes, as it is now.
  virtual Result<TopicIdentity> Topic() = 0;
  // One fetch of `partition` from `from` toward `to`: possibly fewer
  // records, possibly none. The default reads the whole range at once (the
  // librdkafka client's Read polls until the range is read or its deadline).
  virtual Result<FetchResult> Fetch(int32_t partition, int64_t from, int64_t to) {
    Result<std::vector<LogRecord>> records = Read(partition, from, to);
    if (!records.ok()) return records.status();
    return FetchResult{std::move(records).value(), to, std::chrono::milliseconds(0)};
  }
  // A hint before a rebuild: reads of exactly these ranges (one per
  // partition, as Read or Fetch) come next. A client may read them all at
  // once now and answer those reads from what it read: the same records,
  // sooner; a failure of that read answers the first of them (its message
  // names the range that failed). The default does nothing.
  virtual void WillRead(const std::vector<ReadRange>& ranges) { (void)ranges; }
};

}  // namespace durasim
