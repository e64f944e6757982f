// `durasim inspect`: looks at a real action-state topic, written by our
// store, with the store's own code: every partition's records by offset
// (record key, the decoded state, tombstones, cleanup records, undecodable
// records named with partition and offset), and with `--marker JSON`
// (store/recovery_marker_json.h) what a restore from that marker would do:
// KafkaActionStateStore::Rebuild itself runs over a librdkafka client
// (store/rdkafka_log_client.h), so the records it reads, the states it
// caches and a rejection are the production code's, not a re-implementation;
// from the cache and the marker's completed boundaries it says which inputs
// a restore would treat as finished and which actions would resume.
//
// Reading only: nothing is produced. One side effect: the marker's topic
// identity is asked of the group `durasim.topic-identity`
// (store/rdkafka_topic_identity.h), which commits a fresh incarnation when
// the topic has none (a topic our store never wrote to).
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>

namespace durasim {

struct InspectOptions {
  std::string bootstrap_servers;
  std::string topic;
  std::optional<std::string> marker_json;  // --marker: the JSON, or @FILE
  std::chrono::milliseconds deadline{10'000};  // each librdkafka call's bound
};

// Prints the inspection to `out` (errors to `err`). Exit codes
// (sim/exit_codes.h): 0 every record decoded (and the restore from the
// marker was accepted), 1 a record is undecodable or the restore would be
// rejected, 2 a bad marker, 5 the broker or topic cannot be read.
int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

}  // namespace durasim
