// `durasim inspect` (inspect_command.h).
#include "sim/cli/inspect_command.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/run/record_summary.h"
#include "store/format.h"
#include "store/kafka_action_state_store.h"
#include "store/rdkafka_log_client.h"
#include "store/recovery_marker_json.h"
#include "store/check.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

// The store itself, with its cache shown: a rebuild from a marker is the
// production code's, and this is how the inspector sees what it kept.
class InspectedStore : public KafkaActionStateStore {
 public:
  using KafkaActionStateStore::KafkaActionStateStore;
  struct Cached {
    StateKey state_key;
    ActionState state;
    RecordPosition position;
  };
  std::vector<Cached> CachedWithPositions() const {
    std::vector<Cached> states;
    for (const auto& [record_key, cached] : cache_) states.push_back(Cached{cached.state_key, cached.state, cached.position});
    return states;
  }
  static bool Unfinished(const StateKey& state_key, const CompletedBoundaries& completed) {
    return NeedsReplay(state_key, completed);
  }
};

// "key=\"a\" seq=1 event=… action=…" of a record key, or the key quoted.
std::string RecordKeyText(const std::string& key) {
  if (std::optional<std::string> cleaned = ParseCleanupKey(key)) return fmt::format("key={:?} cleanup", *cleaned);
  Result<StateKey> parsed = ParseRecordKey(key);
  if (!parsed.ok()) return fmt::format("record key {:?}", key);
  return fmt::format("key={:?} seq={} event={:016x} action={:016x}", parsed->key, parsed->seq, parsed->event_hash,
                     parsed->action_hash);
}

Result<std::string> MarkerText(const std::string& option) {
  if (option.empty() || option[0] != '@') return option;
  std::ifstream file(option.substr(1));
  if (!file) return Status(StatusCode::kInvalidArgument, fmt::format("--marker {}: cannot read the file", option));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Prints every partition's records; returns the undecodable ones.
int64_t PrintRecords(const std::vector<std::vector<LogRecord>>& partitions, const std::vector<PartitionOffsets>& offsets,
                     std::ostream& out) {
  DURASIM_CHECK_EQ(partitions.size(), offsets.size());  // one read per partition
  std::map<RecordSummary::Kind, int64_t> counts;
  int64_t total = 0;
  for (size_t p = 0; p < partitions.size(); ++p) {
    out << fmt::format("partition {}: offsets [{}, {}), {} record{}\n", p, offsets[p].start, offsets[p].end,
                       partitions[p].size(), partitions[p].size() == 1 ? "" : "s");
    for (const LogRecord& record : partitions[p]) {
      const RecordSummary summary = SummarizeRecord(record.key, record.value);
      ++counts[summary.kind];
      ++total;
      out << fmt::format("  {:>6}  {}  {}{}\n", record.offset, RecordKeyText(record.key), summary.text,
                         summary.kind == RecordSummary::Kind::kUndecodable
                             ? fmt::format("  <== UNDECODABLE at partition {} offset {}", record.partition, record.offset)
                             : "");
    }
  }
  out << fmt::format("{} records: {} states, {} tombstones, {} cleanup records, {} undecodable\n", total,
                     counts[RecordSummary::Kind::kState], counts[RecordSummary::Kind::kTombstone],
                     counts[RecordSummary::Kind::kCleanup], counts[RecordSummary::Kind::kUndecodable]);
  return counts[RecordSummary::Kind::kUndecodable];
}

// The header of a restore from `marker`, and where it reads each partition from.
void PrintReadRanges(const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets, std::ostream& out) {
  out << fmt::format("\nrestore from marker {} (topic {:?}, incarnation {:?}{}):\n", marker, marker.topic.name,
                     marker.topic.incarnation,
                     marker.completed.empty() ? ", no completed boundaries"
                                              : fmt::format(", completed {}", marker.completed));
  for (size_t p = 0; p < offsets.size(); ++p) {
    auto marked = marker.offsets.find(static_cast<int32_t>(p));
    const int64_t from = marked == marker.offsets.end() ? 0 : marked->second;
    out << fmt::format("  reads partition {} from offset {} to {}{}\n", p, from, offsets[p].end,
                       marked == marker.offsets.end() ? " (not in the marker: added after it, read from 0)" : "");
  }
}

// What #1158 hides: states of inputs the marker's checkpoint had not
// finished, in records the restore does not read. Per state, its latest
// record below the marker, and whether a later one (read) supersedes it:
// on a topic written on after the checkpoint, the restore may find the
// state again, but not what the record below held when it restored.
void PrintHiddenBelowMarker(const RecoveryMarker& marker, const std::vector<std::vector<LogRecord>>& partitions,
                            std::ostream& out) {
  std::map<std::string, const LogRecord*> below, above;  // record key -> latest record
  for (size_t p = 0; p < partitions.size(); ++p) {
    auto marked = marker.offsets.find(static_cast<int32_t>(p));
    const int64_t from = marked == marker.offsets.end() ? 0 : marked->second;
    for (const LogRecord& record : partitions[p]) (record.offset < from ? below : above)[record.key] = &record;
  }
  std::vector<std::string> hidden;
  for (const auto& [record_key, record] : below) {
    Result<StateKey> key = ParseRecordKey(record_key);
    if (!key.ok() || record->value.empty() || !InspectedStore::Unfinished(*key, marker.completed)) continue;
    auto later = above.find(record_key);
    hidden.push_back(fmt::format("    partition {} offset {}  key={:?} seq={}  {}{}", record->partition, record->offset,
                                 key->key, key->seq, SummarizeRecord(record->key, record->value).text,
                                 later == above.end() ? ""
                                                      : fmt::format("; a later record of it, at partition {} offset {}, "
                                                                    "is read",
                                                                    later->second->partition, later->second->offset)));
  }
  if (hidden.empty()) {
    out << "  below the marker: no state of an unfinished input\n";
  } else {
    out << fmt::format("  below the marker, NOT read: {} state{} of unfinished inputs, latest record each{}\n",
                       hidden.size(), hidden.size() == 1 ? "" : "s",
                       marker.completed.empty() ? " (no completed boundaries: every input counts)" : "");
    for (const std::string& line : hidden) out << line << "\n";
  }
}

// By input (key, seq) the restore cached: what the runtime would decide
// (DOMAIN.md, "Decisions on restore").
void PrintRestoreDecisions(const RecoveryMarker& marker, const std::vector<InspectedStore::Cached>& cached,
                           std::ostream& out) {
  std::map<std::pair<std::string, int64_t>, std::vector<const InspectedStore::Cached*>> inputs;
  for (const InspectedStore::Cached& state : cached) inputs[{state.state_key.key, state.state_key.seq}].push_back(&state);
  std::vector<std::string> unfinished;
  for (const auto& [input, states] : inputs) {
    DURASIM_CHECK(!states.empty());  // an input is in the map by its first state
    const bool finished = !marker.completed.empty() && !InspectedStore::Unfinished(states.front()->state_key, marker.completed);
    out << fmt::format("  input key={:?} seq={}: {}\n", input.first, input.second,
                       finished ? "finished at the checkpoint: not run again"
                                : "unfinished: its actions run again, reusing the saved results below");
    if (!finished) unfinished.push_back(fmt::format("key={:?} seq={}", input.first, input.second));
    for (const InspectedStore::Cached* state : states) {
      const size_t terminal = static_cast<size_t>(std::count_if(
          state->state.call_results.begin(), state->state.call_results.end(),
          [](const CallResult& call) { return call.status != CallStatus::kPending; }));
      std::string decision;
      if (!finished) {
        decision = state->state.completed
                       ? "  -> completed: replayed from the saved state, no call"
                       : fmt::format("  -> resumes: reuses {} saved call result{}, then calls", terminal,
                                     terminal == 1 ? "" : "s");
      }
      out << fmt::format("    partition {} offset {}  event={:016x} action={:016x}  {}{}\n", state->position.partition,
                         state->position.offset, state->state_key.event_hash, state->state_key.action_hash,
                         DescribeActionState(state->state), decision);
    }
  }
  if (marker.completed.empty()) {
    out << "  (the marker holds no completed boundaries: every cached input counts as unfinished; add the "
           "checkpoint's \"completed\" to tell finished ones)\n";
  }
  out << fmt::format("  unfinished inputs: {}\n", unfinished.empty() ? "none" : fmt::format("{}", fmt::join(unfinished, ", ")));
}

// What a restore from `marker` would do, by the store's own Rebuild.
// Returns whether the rebuild accepted the marker.
bool PrintRestore(LogClient& client, const RecoveryMarker& marker, const std::vector<PartitionOffsets>& offsets,
                  const std::vector<std::vector<LogRecord>>& partitions, std::ostream& out) {
  PrintReadRanges(marker, offsets, out);
  PrintHiddenBelowMarker(marker, partitions, out);
  InspectedStore store(client);
  const Status rebuilt = store.Rebuild(marker);
  const StoreStats stats = store.Stats();
  if (!rebuilt.ok()) {
    out << fmt::format("  REJECTED after scanning {} record{}: {}\n", stats.records_scanned,
                       stats.records_scanned == 1 ? "" : "s", rebuilt.ToString());
    return false;
  }
  const std::vector<InspectedStore::Cached> cached = store.CachedWithPositions();
  out << fmt::format("  accepted: scanned {} record{}, caches {} state{}\n", stats.records_scanned,
                     stats.records_scanned == 1 ? "" : "s", cached.size(), cached.size() == 1 ? "" : "s");
  PrintRestoreDecisions(marker, cached, out);
  return true;
}

}  // namespace

int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  std::optional<RecoveryMarker> marker;
  if (options.marker_json) {
    Result<std::string> text = MarkerText(*options.marker_json);
    if (!text.ok()) {
      err << "durasim: " << text.status().message() << "\n";
      return kExitUsage;
    }
    Result<RecoveryMarker> parsed = MarkerFromJson(*text);
    if (!parsed.ok()) {
      err << "durasim: --marker: " << parsed.status().message() << "\n";
      return kExitUsage;
    }
    marker = *parsed;
  }
  RdKafkaConfig config;
  config.bootstrap_servers = options.bootstrap_servers;
  config.topic = options.topic;
  config.deadline = options.deadline;
  config.mint_incarnation = false;  // inspect writes nothing, not even the topic's incarnation
  Result<std::unique_ptr<RdKafkaLogClient>> client = RdKafkaLogClient::Connect(config);
  if (!client.ok()) {
    err << fmt::format("durasim: inspect: topic {:?} on {}: {}\n", options.topic, options.bootstrap_servers,
                       client.status().ToString());
    // A broker that is not there is infrastructure (sim/exit_codes.h); a
    // topic that is not there is the user's input.
    return client.status().code() == StatusCode::kUnavailable ? kExitInfra : kExitError;
  }
  Result<std::vector<PartitionOffsets>> offsets = (*client)->Offsets();
  if (!offsets.ok()) {
    err << "durasim: inspect: " << offsets.status().ToString() << "\n";
    return kExitError;
  }
  std::vector<std::vector<LogRecord>> partitions;
  for (size_t p = 0; p < offsets->size(); ++p) {
    const PartitionOffsets range = (*offsets)[p];
    Result<std::vector<LogRecord>> records =
        range.start < range.end ? (*client)->Read(static_cast<int32_t>(p), range.start, range.end)
                                : Result<std::vector<LogRecord>>(std::vector<LogRecord>{});
    if (!records.ok()) {
      err << fmt::format("durasim: inspect: reading partition {} [{}, {}): {}\n", p, range.start, range.end,
                         records.status().ToString());
      return kExitError;
    }
    partitions.push_back(std::move(records).value());
  }
  out << fmt::format("topic {:?} on {}: {} partition{}\n", options.topic, options.bootstrap_servers, offsets->size(),
                     offsets->size() == 1 ? "" : "s");
  const int64_t undecodable = PrintRecords(partitions, *offsets, out);
  bool accepted = true;
  if (marker) accepted = PrintRestore(**client, *marker, *offsets, partitions, out);
  if (undecodable > 0) {
    err << fmt::format("durasim: inspect: {} undecodable record{} in topic {:?} (marked UNDECODABLE above)\n",
                       undecodable, undecodable == 1 ? "" : "s", options.topic);
  }
  return undecodable > 0 || !accepted ? kExitNotAsExpected : kExitOk;
}

Command AddInspectCommand(CLI::App& app) {
  struct InspectState {
    InspectOptions options;
    int64_t deadline_ms = 10'000;
  };
  auto state = std::make_shared<InspectState>();
  CLI::App& inspect = *app.add_subcommand(
      "inspect", "decode a real action-state topic written by the store; with --marker, what a restore would read");
  InspectOptions& options = state->options;
  inspect.add_option("--bootstrap-servers", options.bootstrap_servers, "the broker (HOST:PORT)")->required();
  inspect.add_option("--topic", options.topic, "the action-state topic")->required();
  inspect.add_option_function<std::string>(
      "--marker", [&options](const std::string& json) { options.marker_json = json; },
      "a recovery marker's JSON (as `run --keep-topic` prints it), or @FILE: run the store's rebuild from it and "
      "show what it reads, caches and treats as unfinished");
  inspect.add_option("--deadline-ms", state->deadline_ms, "bound on each broker call")
      ->check(CLI::Range(int64_t{1}, int64_t{600'000}));
  return {&inspect, [state] {
            state->options.deadline = std::chrono::milliseconds(state->deadline_ms);
            return RunInspect(state->options, std::cout, std::cerr);
          }};
}

}  // namespace durasim
