// Topic administration over librdkafka's C API (rdkafka_topic_admin.h).
#include "store/rdkafka_topic_admin.h"

#include <algorithm>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "store/format.h"
#include "store/rdkafka_query_threads.h"
#include "store/rdkafka_support.h"

namespace durasim {
namespace {

using rdkafka::Clock;
using rdkafka::ErrorText;
using rdkafka::RemainingMs;
using std::chrono::milliseconds;

// How long to wait before asking the broker again while a change it made
// (a topic created or deleted, a partition's leader elected) is not in its
// metadata yet.
constexpr milliseconds kMetadataPoll{5};

// What the metadata says of one topic: partitions < 0 when it is not there.
struct TopicMetadata {
  int32_t partitions = -1;
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
};

TopicMetadata FindTopic(const rd_kafka_metadata_t& metadata, const std::string& topic) {
  TopicMetadata found;
  for (int i = 0; i < metadata.topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& entry = metadata.topics[i];
    if (topic != entry.topic) continue;
    found.err = entry.err;
    found.partitions = entry.partition_cnt;
  }
  return found;
}

// Why a CreateTopics answer failed, or nothing when it did not. A topic
// that already exists is a failure only when `exists_fails`.
std::string CreateTopicsFailure(rd_kafka_event_t* event, bool exists_fails) {
  std::string failure;
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failure = fmt::format("{}: {}", rd_kafka_err2name(rd_kafka_event_error(event)), rd_kafka_event_error_string(event));
  } else if (const rd_kafka_CreateTopics_result_t* result = rd_kafka_event_CreateTopics_result(event)) {
    size_t count = 0;
    const rd_kafka_topic_result_t** topics = rd_kafka_CreateTopics_result_topics(result, &count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_resp_err_t topic_err = rd_kafka_topic_result_error(topics[i]);
      // Someone else created it meanwhile: the metadata check decides,
      // unless the topic had to be new (a race of two runs on one name).
      if (topic_err == RD_KAFKA_RESP_ERR_NO_ERROR) continue;
      if (topic_err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS && !exists_fails) continue;
      const char* why = rd_kafka_topic_result_error_string(topics[i]);
      failure = fmt::format("{}: {}", rd_kafka_err2name(topic_err), why != nullptr ? why : rd_kafka_err2str(topic_err));
    }
  }
  return failure;
}

Status CreateTopic(rd_kafka_t* rk, const RdKafkaConfig& config, Clock::time_point deadline) {
  char errstr[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(config.topic.c_str(), config.expected_partitions, 1, errstr, sizeof(errstr));
  if (new_topic == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}': {}", config.topic, errstr));
  }
  std::unique_ptr<rd_kafka_NewTopic_t, void (*)(rd_kafka_NewTopic_t*)> topic_guard(new_topic,
                                                                                     &rd_kafka_NewTopic_destroy);
  // Compacted: only the latest state per record key has to be kept.
  rd_kafka_resp_err_t err =
      rd_kafka_NewTopic_set_config(new_topic, "cleanup.policy", config.deletable ? "compact,delete" : "compact");
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR && config.deletable) {
    err = rd_kafka_NewTopic_set_config(new_topic, "retention.ms", "-1");
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) err = rd_kafka_NewTopic_set_config(new_topic, "retention.bytes", "-1");
  }
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status(StatusCode::kInvalidArgument, fmt::format("topic '{}': {}", config.topic, ErrorText(err)));
  }
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options_guard(
      options, &rd_kafka_AdminOptions_destroy);
  const int timeout_ms = std::max(1, RemainingMs(deadline));
  if (rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0 ||
      rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("create topic '{}': {}", config.topic, errstr));
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue_guard(queue, &rd_kafka_queue_destroy);
  rd_kafka_CreateTopics(rk, &new_topic, 1, options, queue);
  // Wait a little past the deadline for the admin call's own timeout report.
  rd_kafka_event_t* event =
      rdkafka::PollAdminAnswer(queue, deadline);
  if (event == nullptr) {
    return Status(StatusCode::kUnavailable, fmt::format("creating topic '{}' at {} did not finish within {} ms",
                                                        config.topic, config.bootstrap_servers,
                                                        config.deadline.count()));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event_guard(event, &rd_kafka_event_destroy);
  const std::string failure = CreateTopicsFailure(event, config.require_new_topic);
  if (!failure.empty()) {
    // A name someone else took meanwhile is the caller's to change, not the broker's failure.
    const StatusCode code = failure.starts_with("TOPIC_ALREADY_EXISTS") ? StatusCode::kInvalidArgument
                                                                        : StatusCode::kUnavailable;
    return Status(code, fmt::format("cannot create topic '{}' at {}: {}", config.topic, config.bootstrap_servers,
                                    failure));
  }
  return Status::Ok();
}

// The errors a broker answers while a new partition's leader is being
// elected: transient, never about the data.
bool IsLeadershipInFlux(rd_kafka_resp_err_t err) {
  return err == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION || err == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE;
}

// One ListOffsets request for every partition at once (by the special
// timestamp `which`: RD_KAFKA_OFFSET_BEGINNING, the log start, or
// RD_KAFKA_OFFSET_END, the high watermark), into `out`'s `start` or `end`.
// Just after a topic is created a real broker may not have elected the
// partitions' leaders yet: it asks again until the deadline.
Status QueryOneEnd(RdKafkaConsumer& consumer, const RdKafkaConfig& config, int32_t partitions, int64_t which,
                   Clock::time_point deadline, std::vector<PartitionOffsets>& out) {
  while (true) {
    rdkafka::PartitionList list(rd_kafka_topic_partition_list_new(partitions));
    for (int32_t p = 0; p < partitions; ++p) {
      rd_kafka_topic_partition_list_add(list.get(), config.topic.c_str(), p)->offset = which;
    }
    rd_kafka_resp_err_t err = rdkafka::CallInSlices(
        deadline, [&](int slice) { return rd_kafka_offsets_for_times(consumer.rk, list.get(), slice); });
    int32_t failed = -1;  // the partition the error is of; -1: of the query
    for (int i = 0; err == RD_KAFKA_RESP_ERR_NO_ERROR && i < list->cnt; ++i) {
      const rd_kafka_topic_partition_t& entry = list->elems[i];
      if (entry.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        err = entry.err;
        failed = entry.partition;
      } else if (entry.offset < 0) {
        err = RD_KAFKA_RESP_ERR__BAD_MSG;  // an answer without an offset
        failed = entry.partition;
      }
    }
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      for (int i = 0; i < list->cnt; ++i) {
        const rd_kafka_topic_partition_t& entry = list->elems[i];
        PartitionOffsets& range = out[static_cast<size_t>(entry.partition)];
        (which == RD_KAFKA_OFFSET_BEGINNING ? range.start : range.end) = entry.offset;
      }
      return Status::Ok();
    }
    if (IsLeadershipInFlux(err) && RemainingMs(deadline) > 0) {
      std::this_thread::sleep_for(std::min(kMetadataPoll, milliseconds(RemainingMs(deadline))));
      continue;
    }
    return Status(StatusCode::kUnavailable,
                  fmt::format("offsets of topic '{}'{} at {}: {}{}", config.topic,
                              failed >= 0 ? fmt::format(" partition {}", failed) : "", config.bootstrap_servers,
                              ErrorText(err), consumer.LastError()));
  }
}

// The watermarks of every partition: the log starts of all of them in one
// request, then their ends in another (one after the other: two requests in
// flight at once can leave the second answer to wait on the first one's
// delayed TCP acknowledgement, about 40 ms on the mock cluster). Runs on a
// thread of its own.
Result<std::vector<PartitionOffsets>> QueryWatermarks(RdKafkaConsumer& consumer, const RdKafkaConfig& config,
                                                      int32_t partitions, Clock::time_point deadline) {
  std::vector<PartitionOffsets> out(static_cast<size_t>(partitions));
  if (partitions == 0) return out;
  for (const int64_t which : {RD_KAFKA_OFFSET_BEGINNING, RD_KAFKA_OFFSET_END}) {
    if (Status queried = QueryOneEnd(consumer, config, partitions, which, deadline, out); !queried.ok()) return queried;
  }
  return out;
}

}  // namespace

Result<int32_t> CheckTopic(RdKafkaReader& reader, const RdKafkaConfig& config) {
  Result<std::shared_ptr<RdKafkaConsumer>> consumer = reader.Consumer();
  if (!consumer.ok()) return consumer.status();
  rd_kafka_t* rk = (*consumer)->rk;
  const Clock::time_point deadline = Clock::now() + config.deadline;
  bool created = false;
  while (true) {
    // All topics, not just ours: a metadata request naming a topic can create
    // it (the mock cluster always does; brokers with auto-create do).
    const rd_kafka_metadata_t* metadata = nullptr;
    rd_kafka_resp_err_t err = rdkafka::CallInSlices(
        deadline, [&](int slice) { return rd_kafka_metadata(rk, 1, nullptr, &metadata, slice); });
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      // Serve the error callbacks into LastError() (nothing is assigned:
      // no record can come).
      if (rd_kafka_message_t* stray = rd_kafka_consumer_poll(rk, 0)) rd_kafka_message_destroy(stray);
      return Status(StatusCode::kUnavailable,
                    fmt::format("cannot reach Kafka at {} within {} ms: {}{}", config.bootstrap_servers,
                                config.deadline.count(), ErrorText(err), (*consumer)->LastError()));
    }
    const TopicMetadata topic = FindTopic(*metadata, config.topic);
    rd_kafka_metadata_destroy(metadata);
    if (topic.partitions > 0 && config.require_new_topic && !created) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("topic '{}' already exists at {} ({} partitions): a new topic was asked for; delete "
                                "it or choose another name",
                                config.topic, config.bootstrap_servers, topic.partitions));
    }
    if (topic.partitions > 0 && topic.err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (config.expected_partitions != 0 && topic.partitions != config.expected_partitions) {
        return Status(StatusCode::kInvalidArgument,
                      fmt::format("topic '{}' at {} has {} partitions, expected {}", config.topic,
                                  config.bootstrap_servers, topic.partitions, config.expected_partitions));
      }
      return topic.partitions;
    }
    if (topic.partitions < 0 && !config.create_topic) {
      return Status(StatusCode::kNotFound, fmt::format("topic '{}' does not exist at {} (create_topic is off)",
                                                       config.topic, config.bootstrap_servers));
    }
    if (topic.partitions < 0 && !created) {
      Status create = CreateTopic(rk, config, deadline);
      if (!create.ok()) return create;
      created = true;
    }
    // Created but not visible yet, or no leader yet: ask again soon (a
    // metadata request is cheap; a run waits for its topic).
    if (RemainingMs(deadline) == 0) {
      return Status(StatusCode::kUnavailable,
                    fmt::format("topic '{}' at {} is not usable within {} ms: {}", config.topic,
                                config.bootstrap_servers, config.deadline.count(),
                                topic.err != RD_KAFKA_RESP_ERR_NO_ERROR ? ErrorText(topic.err)
                                                                        : "not visible in the metadata"));
    }
    std::this_thread::sleep_for(std::min(kMetadataPoll, milliseconds(RemainingMs(deadline))));
  }
}

Status CreatePartitions(RdKafkaProducer& producer, const RdKafkaConfig& config, int32_t partitions) {
  const Clock::time_point deadline = Clock::now() + config.deadline;
  Result<rd_kafka_t*> started = producer.StartedHandle();
  if (!started.ok()) return started.status();
  rd_kafka_t* rk = *started;
  char errstr[512];
  rd_kafka_NewPartitions_t* grown =
      rd_kafka_NewPartitions_new(config.topic.c_str(), static_cast<size_t>(partitions), errstr, sizeof(errstr));
  if (grown == nullptr) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partitions of topic '{}': {}", config.topic, errstr));
  }
  std::unique_ptr<rd_kafka_NewPartitions_t, void (*)(rd_kafka_NewPartitions_t*)> grown_guard(
      grown, &rd_kafka_NewPartitions_destroy);
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATEPARTITIONS);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options_guard(
      options, &rd_kafka_AdminOptions_destroy);
  const int timeout_ms = std::max(1, RemainingMs(deadline));
  if (rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0 ||
      rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("partitions of topic '{}': {}", config.topic, errstr));
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue_guard(queue, &rd_kafka_queue_destroy);
  rd_kafka_CreatePartitions(rk, &grown, 1, options, queue);
  rd_kafka_event_t* event =
      rdkafka::PollAdminAnswer(queue, deadline);
  if (event == nullptr) {
    return Status(StatusCode::kUnavailable, fmt::format("CreatePartitions of topic '{}' at {} did not finish within {} ms",
                                                        config.topic, config.bootstrap_servers, config.deadline.count()));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event_guard(event, &rd_kafka_event_destroy);
  std::string failure;
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failure = fmt::format("{}: {}", rd_kafka_err2name(rd_kafka_event_error(event)), rd_kafka_event_error_string(event));
  } else if (const rd_kafka_CreatePartitions_result_t* result = rd_kafka_event_CreatePartitions_result(event)) {
    size_t count = 0;
    const rd_kafka_topic_result_t** topics = rd_kafka_CreatePartitions_result_topics(result, &count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(topics[i]);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) continue;
      const char* why = rd_kafka_topic_result_error_string(topics[i]);
      failure = fmt::format("{}: {}", rd_kafka_err2name(err), why != nullptr ? why : rd_kafka_err2str(err));
    }
  }
  if (!failure.empty()) {
    return Status(StatusCode::kUnavailable, fmt::format("cannot grow topic '{}' at {} to {} partitions: {}",
                                                        config.topic, config.bootstrap_servers, partitions, failure));
  }
  return Status::Ok();
}

Status DeleteRecordsBefore(RdKafkaProducer& producer, const RdKafkaConfig& config, int32_t partition,
                           int64_t before_offset) {
  const Clock::time_point deadline = Clock::now() + config.deadline;
  Result<rd_kafka_t*> started = producer.StartedHandle();
  if (!started.ok()) return started.status();
  rd_kafka_t* rk = *started;
  char errstr[512];
  rd_kafka_topic_partition_list_t* before = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(before, config.topic.c_str(), partition)->offset = before_offset;
  rd_kafka_DeleteRecords_t* request = rd_kafka_DeleteRecords_new(before);
  rd_kafka_topic_partition_list_destroy(before);  // the request keeps a copy
  std::unique_ptr<rd_kafka_DeleteRecords_t, void (*)(rd_kafka_DeleteRecords_t*)> request_guard(
      request, &rd_kafka_DeleteRecords_destroy);
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_DELETERECORDS);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options_guard(
      options, &rd_kafka_AdminOptions_destroy);
  const int timeout_ms = std::max(1, RemainingMs(deadline));
  if (rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0 ||
      rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("delete records of topic '{}': {}", config.topic, errstr));
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue_guard(queue, &rd_kafka_queue_destroy);
  rd_kafka_DeleteRecords(rk, &request, 1, options, queue);
  rd_kafka_event_t* event =
      rdkafka::PollAdminAnswer(queue, deadline);
  if (event == nullptr) {
    return Status(StatusCode::kUnavailable, fmt::format("DeleteRecords of topic '{}' at {} did not finish within {} ms",
                                                        config.topic, config.bootstrap_servers, config.deadline.count()));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event_guard(event, &rd_kafka_event_destroy);
  std::string failure;
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failure = fmt::format("{}: {}", rd_kafka_err2name(rd_kafka_event_error(event)), rd_kafka_event_error_string(event));
  } else if (const rd_kafka_DeleteRecords_result_t* result = rd_kafka_event_DeleteRecords_result(event)) {
    const rd_kafka_topic_partition_list_t* offsets = rd_kafka_DeleteRecords_result_offsets(result);
    for (int i = 0; offsets != nullptr && i < offsets->cnt; ++i) {
      if (offsets->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR) failure = ErrorText(offsets->elems[i].err);
    }
  }
  if (!failure.empty()) {
    return Status(StatusCode::kUnavailable, fmt::format("cannot delete the records of topic '{}' partition {} below {} "
                                                        "at {}: {}",
                                                        config.topic, partition, before_offset,
                                                        config.bootstrap_servers, failure));
  }
  return Status::Ok();
}

Status DeleteTopicAndWait(RdKafkaProducer& producer, const RdKafkaConfig& config) {
  const Clock::time_point deadline = Clock::now() + config.deadline;
  Result<rd_kafka_t*> started = producer.StartedHandle();
  if (!started.ok()) return started.status();
  rd_kafka_t* rk = *started;
  char errstr[512];
  rd_kafka_DeleteTopic_t* request = rd_kafka_DeleteTopic_new(config.topic.c_str());
  std::unique_ptr<rd_kafka_DeleteTopic_t, void (*)(rd_kafka_DeleteTopic_t*)> request_guard(request,
                                                                                           &rd_kafka_DeleteTopic_destroy);
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_DELETETOPICS);
  std::unique_ptr<rd_kafka_AdminOptions_t, void (*)(rd_kafka_AdminOptions_t*)> options_guard(
      options, &rd_kafka_AdminOptions_destroy);
  const int timeout_ms = std::max(1, RemainingMs(deadline));
  if (rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0 ||
      rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof(errstr)) != 0) {
    return Status(StatusCode::kInvalidArgument, fmt::format("delete topic '{}': {}", config.topic, errstr));
  }
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
  std::unique_ptr<rd_kafka_queue_t, void (*)(rd_kafka_queue_t*)> queue_guard(queue, &rd_kafka_queue_destroy);
  rd_kafka_DeleteTopics(rk, &request, 1, options, queue);
  rd_kafka_event_t* event =
      rdkafka::PollAdminAnswer(queue, deadline);
  if (event == nullptr) {
    return Status(StatusCode::kUnavailable, fmt::format("DeleteTopics of '{}' at {} did not finish within {} ms",
                                                        config.topic, config.bootstrap_servers, config.deadline.count()));
  }
  std::unique_ptr<rd_kafka_event_t, void (*)(rd_kafka_event_t*)> event_guard(event, &rd_kafka_event_destroy);
  std::string failure;
  if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failure = fmt::format("{}: {}", rd_kafka_err2name(rd_kafka_event_error(event)), rd_kafka_event_error_string(event));
  } else if (const rd_kafka_DeleteTopics_result_t* result = rd_kafka_event_DeleteTopics_result(event)) {
    size_t count = 0;
    const rd_kafka_topic_result_t** topics = rd_kafka_DeleteTopics_result_topics(result, &count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(topics[i]);
      if (err != RD_KAFKA_RESP_ERR_NO_ERROR) failure = ErrorText(err);
    }
  }
  if (!failure.empty()) {
    return Status(StatusCode::kUnavailable,
                  fmt::format("cannot delete topic '{}' at {}: {}", config.topic, config.bootstrap_servers, failure));
  }
  while (true) {
    const rd_kafka_metadata_t* metadata = nullptr;
    const rd_kafka_resp_err_t err =
        rdkafka::CallInSlices(deadline, [&](int slice) { return rd_kafka_metadata(rk, 1, nullptr, &metadata, slice); });
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      const TopicMetadata topic = FindTopic(*metadata, config.topic);
      rd_kafka_metadata_destroy(metadata);
      if (topic.partitions < 0) return Status::Ok();
    }
    if (RemainingMs(deadline) == 0) {
      return Status(StatusCode::kUnavailable, fmt::format("topic '{}' at {} is still listed {} ms after its deletion",
                                                          config.topic, config.bootstrap_servers,
                                                          config.deadline.count()));
    }
    std::this_thread::sleep_for(std::min(kMetadataPoll, milliseconds(RemainingMs(deadline))));
  }
}

Result<std::vector<PartitionOffsets>> QueryOffsets(RdKafkaReader& reader, const RdKafkaConfig& config,
                                                   int32_t partitions) {
  Result<std::shared_ptr<RdKafkaConsumer>> consumer = reader.Consumer();
  if (!consumer.ok()) return consumer.status();
  const Clock::time_point deadline = Clock::now() + config.deadline;
  // librdkafka 2.0.2 can block in rd_kafka_query_watermark_offsets past its
  // timeout when the broker dies after the request went out (fixed in 2.3.0,
  // #4460), so the queries run on a thread of their own that is abandoned,
  // with its consumer, at the deadline (rdkafka_query_threads.h). The call
  // keeps copies of what it uses.
  auto query = std::make_shared<std::packaged_task<Result<std::vector<PartitionOffsets>>()>>(
      [handle = *consumer, config, partitions, deadline] {
        return QueryWatermarks(*handle, config, partitions, deadline);
      });
  std::future<Result<std::vector<PartitionOffsets>>> answer = query->get_future();
  if (Status started = rdkafka::RunOnQueryThread([query] { (*query)(); }); !started.ok()) {
    return Status(started.code(), fmt::format("offsets of topic '{}': {}", config.topic, started.message()));
  }
  bool ready = false;
  while (!ready && !rdkafka::InterruptRequested() && Clock::now() < deadline + rdkafka::kQueryGrace) {
    ready = answer.wait_for(rdkafka::kBlockingSlice) == std::future_status::ready;
  }
  if (!ready) {
    const std::string last_error = (*consumer)->LastError();
    reader.Reset();  // the abandoned thread keeps its own reference
    return Status(StatusCode::kUnavailable, fmt::format("offsets of topic '{}' at {}: no answer within {} ms{}",
                                                        config.topic, config.bootstrap_servers,
                                                        config.deadline.count(), last_error));
  }
  return answer.get();
}

}  // namespace durasim
