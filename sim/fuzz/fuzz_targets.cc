// The fuzz targets and their properties.
#include "sim/fuzz/fuzz_targets.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

#include "model/verdict.h"
#include "sim/run/runner.h"
#include "sim/scenario/scenario_parser.h"
#include "store/check.h"
#include "store/format.h"
#include "store/recovery_marker.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

// A decimal at the start of `text` (digits only), or none.
std::optional<int64_t> LeadingNumber(std::string_view text, size_t& length) {
  length = 0;
  while (length < text.size() && text[length] >= '0' && text[length] <= '9') ++length;
  if (length == 0) return std::nullopt;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + length, value);
  if (ec != std::errc() || ptr != text.data() + length) return std::nullopt;
  return value;
}

}  // namespace

const char* FuzzTargetName(FuzzTarget target) {
  switch (target) {
    case FuzzTarget::kScenario: return "scenario";
    case FuzzTarget::kState: return "state";
    case FuzzTarget::kMarker: return "marker";
  }
  return "unknown";
}

std::optional<FuzzTarget> ParseFuzzTarget(std::string_view name) {
  for (FuzzTarget target : {FuzzTarget::kScenario, FuzzTarget::kState, FuzzTarget::kMarker}) {
    if (name == FuzzTargetName(target)) return target;
  }
  return std::nullopt;
}

const char* FuzzTargetExtension(FuzzTarget target) {
  switch (target) {
    case FuzzTarget::kScenario: return ".yaml";
    case FuzzTarget::kState: return ".state";
    case FuzzTarget::kMarker: return ".txt";
  }
  return ".bin";
}

std::optional<std::string> LocatedErrorProblem(const std::string& message, const std::string& path,
                                               const std::string& text) {
  const std::string prefix = path + ":";
  if (!message.starts_with(prefix)) return "the error does not start with \"" + prefix + "\"";
  std::string_view rest = std::string_view(message).substr(prefix.size());
  size_t length = 0;
  const std::optional<int64_t> line = LeadingNumber(rest, length);
  if (!line || length >= rest.size() || rest[length] != ':') return "the error has no line after the path";
  rest.remove_prefix(length + 1);
  const std::optional<int64_t> column = LeadingNumber(rest, length);
  if (!column || length >= rest.size() || rest[length] != ':') return "the error has no column after the line";
  rest.remove_prefix(length + 1);
  if (!rest.starts_with(" ") || rest.size() < 2) return "the error names no reason after line:column";
  const int64_t lines = static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (*line < 1 || *line > lines) {
    return fmt::format("the error's line {} is outside the file's {} line(s)", *line, lines);
  }
  if (*column < 1) return fmt::format("the error's column {} is below 1", *column);
  return std::nullopt;
}

TargetResult RunScenarioTarget(const std::string& input) {
  TargetResult result;
  Result<Scenario> scenario = ParseScenario(input, kFuzzScenarioPath);
  if (!scenario.ok()) {
    result.outcome = "parse-error";
    if (scenario.status().code() != StatusCode::kInvalidArgument) {
      result.problem = fmt::format("the parser failed with status {}, not invalid-argument: {}",
                                   StatusCodeName(scenario.status().code()), scenario.status().message());
    } else if (std::optional<std::string> problem =
                   LocatedErrorProblem(scenario.status().message(), kFuzzScenarioPath, input)) {
      result.problem = *problem + ": " + scenario.status().message().substr(0, 400);
    }
    return result;
  }
  const RunReport report = RunScenario(*scenario, RunOptions{});
  result.outcome = fmt::format("run {} {}", NameOf(report.verdict), report.ok ? "as-expected" : "not-as-expected");
  if (report.verdict == Verdict::kError && report.error.empty()) {
    result.problem = "the run ended in error without saying why";
  }
  return result;
}

TargetResult RunStateTarget(const std::string& input) {
  TargetResult result;
  const size_t newline = input.find('\n');
  const std::string record_key = input.substr(0, newline);
  const std::string value = newline == std::string::npos ? std::string() : input.substr(newline + 1);
  std::vector<std::string> problems;

  const Result<StateKey> key = ParseRecordKey(record_key);
  if (key.ok() && EncodeRecordKey(*key) != record_key) {
    problems.push_back(fmt::format("record key {:?} parses but encodes back as {:?}", record_key,
                                   EncodeRecordKey(*key)));
  }
  if (!key.ok() && key.status().code() != StatusCode::kInvalidRecovery) {
    problems.push_back("a record key was rejected with a status other than invalid-recovery");
  }
  const std::optional<std::string> cleanup = ParseCleanupKey(record_key);
  if (cleanup && EncodeCleanupKey(*cleanup) != record_key) problems.push_back("a cleanup key does not round-trip");
  const std::optional<int64_t> cleanup_value = ParseCleanupValue(value);
  if (cleanup_value && *cleanup_value < 0) {
    problems.push_back(fmt::format("cleanup value {:?} decodes to {}", value, *cleanup_value));
  }

  const Result<DecodedState> decoded = DecodeStateValue(value);
  if (decoded.ok()) {
    const std::string again = EncodeStateValue(decoded->state_key, decoded->state);
    const Result<DecodedState> redecoded = DecodeStateValue(again);
    if (!redecoded.ok()) {
      problems.push_back("a decoded state encodes to a value that does not decode: " + redecoded.status().message());
    } else if (!(redecoded->state_key == decoded->state_key) || !(redecoded->state == decoded->state) ||
               StateDigest(redecoded->state_key, redecoded->state) !=
                   StateDigest(decoded->state_key, decoded->state)) {
      problems.push_back("a decoded state does not survive encoding and decoding again");
    }
  } else if (decoded.status().code() != StatusCode::kInvalidRecovery || decoded.status().message().empty()) {
    problems.push_back("a state value was rejected with a status other than invalid-recovery, or no message");
  }
  result.outcome = fmt::format("key {} value {}", key.ok() ? "parsed" : "rejected",
                               decoded.ok() ? "decoded" : "rejected");
  for (const std::string& problem : problems) result.problem += (result.problem.empty() ? "" : "; ") + problem;
  return result;
}

namespace {

// The marker target's input: lines of words (unknown lines are skipped,
// a number that does not parse reads as 0, so every input describes
// something):
//   version <v>
//   topic <name> <incarnation>          the marker's topic
//   offsets <p>:<o> ...                 the marker's offsets
//   completed <key>:<seq> ...           the marker's completed boundaries
//   store <name> <incarnation>          the topic the store reads
//   log <start>-<end> ...               its partitions' offsets, partition 0 first
struct MarkerCase {
  RecoveryMarker marker;
  TopicIdentity store_topic;
  std::vector<PartitionOffsets> log;
};

template <typename T>
T NumberOr0(std::string_view text) {
  T value = 0;
  const char* begin = text.data();
  if (!text.empty() && text[0] == '+') ++begin;
  std::from_chars(begin, text.data() + text.size(), value);
  return value;
}

// `text` split at `separator`: (before, after); after is empty without one.
std::pair<std::string_view, std::string_view> SplitAt(std::string_view text, char separator) {
  const size_t at = text.find(separator);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + 1)};
}

MarkerCase ReadMarkerCase(const std::string& input) {
  MarkerCase out;
  std::istringstream lines(input);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string keyword;
    words >> keyword;
    std::vector<std::string> args;
    for (std::string word; words >> word;) args.push_back(word);
    if (keyword == "version" && !args.empty()) {
      out.marker.version = NumberOr0<int32_t>(args[0]);
    } else if (keyword == "topic" || keyword == "store") {
      TopicIdentity& topic = keyword == "topic" ? out.marker.topic : out.store_topic;
      topic.name = args.size() > 0 ? args[0] : "";
      topic.incarnation = args.size() > 1 ? args[1] : "";
    } else if (keyword == "offsets") {
      for (const std::string& arg : args) {
        const auto [partition, offset] = SplitAt(arg, ':');
        out.marker.offsets[NumberOr0<int32_t>(partition)] = NumberOr0<int64_t>(offset);
      }
    } else if (keyword == "completed") {
      for (const std::string& arg : args) {
        const size_t at = arg.rfind(':');
        const std::string key = at == std::string::npos ? arg : arg.substr(0, at);
        out.marker.completed[key] = at == std::string::npos ? 0 : NumberOr0<int64_t>(arg.substr(at + 1));
      }
    } else if (keyword == "log") {
      // At most 4096 partitions: a marker's checks are linear in them.
      for (const std::string& arg : args) {
        if (out.log.size() >= 4096) break;
        const auto [start, end] = SplitAt(arg, '-');
        out.log.push_back(PartitionOffsets{NumberOr0<int64_t>(start), NumberOr0<int64_t>(end)});
      }
    }
  }
  return out;
}

}  // namespace

TargetResult RunMarkerTarget(const std::string& input) {
  TargetResult result;
  const MarkerCase c = ReadMarkerCase(input);
  const Status checked = CheckMarker(c.marker, c.store_topic, c.log);
  const Status again = CheckMarker(c.marker, c.store_topic, c.log);
  result.outcome = checked.ok() ? "accepted" : "rejected";
  if (checked.ok() != again.ok() || checked.message() != again.message()) {
    result.problem = "the same marker checked twice gave two answers";
    return result;
  }
  if (!checked.ok()) {
    if (checked.code() != StatusCode::kInvalidRecovery || checked.message().empty()) {
      result.problem = "a marker was rejected with a status other than invalid-recovery, or no message";
    }
    return result;
  }
  // Accepted: the marker is this store's, names partitions 0..n-1 of the
  // log, each offset inside its partition, and added partitions start at 0.
  // A version-1 marker (the bare offset map) names no topic: only its
  // offsets are checked.
  const bool legacy = c.marker.version == RecoveryMarker::kLegacyVersion;
  if (!legacy && c.marker.version != RecoveryMarker::kVersion) {
    result.problem = "a marker of a version no store writes was accepted";
  }
  if (!legacy && !(c.marker.topic == c.store_topic)) result.problem = "a marker of another topic was accepted";
  int32_t expected = 0;
  for (const auto& [partition, offset] : c.marker.offsets) {
    if (partition != expected++ || static_cast<size_t>(partition) >= c.log.size()) {
      result.problem = fmt::format("an accepted marker names partition {}, outside the log's {}", partition,
                                   c.log.size());
      return result;
    }
    const PartitionOffsets range = c.log[static_cast<size_t>(partition)];
    if (offset < range.start || offset > range.end) {
      result.problem = fmt::format("an accepted marker's offset {} of partition {} is outside [{}, {}]", offset,
                                   partition, range.start, range.end);
    }
  }
  if (c.marker.offsets.empty()) result.problem = "a marker without partitions was accepted";
  for (size_t p = c.marker.offsets.size(); p < c.log.size(); ++p) {
    if (c.log[p].start > 0) result.problem = fmt::format("added partition {} starts at {} and was accepted", p,
                                                         c.log[p].start);
  }
  return result;
}

TargetResult RunTarget(FuzzTarget target, const std::string& input) {
  switch (target) {
    case FuzzTarget::kScenario: return RunScenarioTarget(input);
    case FuzzTarget::kState: return RunStateTarget(input);
    case FuzzTarget::kMarker: return RunMarkerTarget(input);
  }
  return {};
}

}  // namespace durasim
