// State codec implementation: record keys, the dispatch between the fast
// and the reference value codec, and the reference codec (nlohmann::json).
#include "store/state_codec.h"

#include "store/state_codec_internal.h"
#include "store/utf8.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "store/check.h"
#include "store/hash.h"

namespace durasim {
namespace {

using nlohmann::json;
using state_codec_internal::AppendHex64;
using state_codec_internal::ParseHex64;

std::string Hex(uint64_t value) {
  std::string out;
  AppendHex64(out, value);
  return out;
}

std::string HexBytes(const std::string& bytes) {
  std::string out;
  state_codec_internal::AppendHexBytes(out, bytes);
  return out;
}

bool ParseSeq(std::string_view text, int64_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 10);
  return ec == std::errc() && ptr == text.data() + text.size() && out >= 0;
}

// Strict field readers: the value must have exactly the type our encoder
// writes; nothing is converted (no 1.5 -> 1, no true -> 1, no null -> []).
const json& Field(const json& object, const char* name) {
  if (!object.is_object()) throw std::invalid_argument(fmt::format("expected an object holding \"{}\"", name));
  auto it = object.find(name);
  if (it == object.end()) throw std::invalid_argument(fmt::format("field \"{}\" is missing", name));
  return *it;
}

int64_t Integer(const json& object, const char* name) {
  const json& field = Field(object, name);
  if (!field.is_number_integer()) throw std::invalid_argument(fmt::format("field \"{}\" is not an integer", name));
  return field.get<int64_t>();
}

std::string Text(const json& object, const char* name) {
  const json& field = Field(object, name);
  if (!field.is_string()) throw std::invalid_argument(fmt::format("field \"{}\" is not a string", name));
  return field.get<std::string>();
}

bool Boolean(const json& object, const char* name) {
  const json& field = Field(object, name);
  if (!field.is_boolean()) throw std::invalid_argument(fmt::format("field \"{}\" is not a boolean", name));
  return field.get<bool>();
}

const json& List(const json& object, const char* name) {
  const json& field = Field(object, name);
  if (!field.is_array()) throw std::invalid_argument(fmt::format("field \"{}\" is not a list", name));
  return field;
}

CallStatus StatusOrThrow(const std::string& text) {
  if (std::optional<CallStatus> status = state_codec_internal::ParseCallStatus(text)) return *status;
  throw std::invalid_argument("unknown call status \"" + text + "\"");
}

}  // namespace

const char* CallStatusName(CallStatus status) {
  switch (status) {
    case CallStatus::kPending: return "PENDING";
    case CallStatus::kSucceeded: return "SUCCEEDED";
    case CallStatus::kFailed: return "FAILED";
  }
  DURASIM_CHECK_MSG(false, "call status " + std::to_string(static_cast<int>(status)) + " has no name");
  return "UNKNOWN";
}

std::string EncodeRecordKey(const StateKey& k) {
  char digits[24];
  const std::string_view seq(digits, std::to_chars(digits, digits + sizeof digits, k.seq).ptr);
  std::string out;
  out.reserve(k.key.size() + seq.size() + 35);
  out.append(k.key).append(1, '_').append(seq).append(1, '_');
  AppendHex64(out, k.event_hash);
  out.push_back('_');
  AppendHex64(out, k.action_hash);
  return out;
}

Result<StateKey> ParseRecordKey(const std::string& record_key) {
  // Split off the last three '_'-separated fields.
  size_t cut[3];
  size_t end = record_key.size();
  for (int i = 2; i >= 0; --i) {
    const size_t pos = end == 0 ? std::string::npos : record_key.rfind('_', end - 1);
    if (pos == std::string::npos) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("record key \"{}\" does not have the form <key>_<seq>_<eventHash>_<actionHash>",
                                record_key));
    }
    cut[i] = pos;
    end = pos;
  }
  // Found right to left, so the three separators are in order.
  DURASIM_CHECK(cut[0] < cut[1] && cut[1] < cut[2]);
  StateKey k;
  k.key = record_key.substr(0, cut[0]);
  const std::string_view whole(record_key);
  if (!ParseSeq(whole.substr(cut[0] + 1, cut[1] - cut[0] - 1), k.seq) ||
      !ParseHex64(whole.substr(cut[1] + 1, cut[2] - cut[1] - 1), k.event_hash) ||
      !ParseHex64(whole.substr(cut[2] + 1), k.action_hash)) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("record key \"{}\": sequence number or hashes do not parse", record_key));
  }
  // One state key has one spelling: the cache is keyed by it, so a key in
  // another spelling ("01", uppercase hex) would be cached out of reach.
  if (EncodeRecordKey(k) != record_key) {
    return Status(StatusCode::kInvalidRecovery,
                  fmt::format("record key \"{}\" is not in canonical form (expected \"{}\")", record_key,
                              EncodeRecordKey(k)));
  }
  return k;
}

std::string EncodeStateValue(const StateKey& k, const ActionState& state) {
  if (std::optional<std::string> value = state_codec_internal::WriteStateValue(k, state)) return *std::move(value);
  // A string that is not UTF-8: the reference encoder throws what it threw.
  return state_codec_internal::EncodeStateValueDom(k, state);
}

Result<DecodedState> DecodeStateValue(const std::string& value) {
  if (std::optional<DecodedState> state = state_codec_internal::ReadCanonicalStateValue(value)) {
    return *std::move(state);
  }
  return state_codec_internal::DecodeStateValueDom(value);
}

std::string state_codec_internal::EncodeStateValueDom(const StateKey& k, const ActionState& state) {
  json calls = json::array();
  for (const CallResult& c : state.call_results) {
    calls.push_back({{"fn", c.function_id},
                     {"args", Hex(c.args_digest)},
                     {"status", CallStatusName(c.status)},
                     {"result", c.result},
                     {"error", c.error}});
  }
  json memory = json::array();
  for (const MemoryUpdate& m : state.memory_updates) memory.push_back({{"slot", m.slot}, {"value", m.value}});
  json events = json::array();
  for (const EmittedEvent& e : state.emitted_events) events.push_back({{"type", e.type}, {"value", e.value}});
  json value = {{"v", kStateFormatVersion},   {"seq", k.seq},
                {"event", Hex(k.event_hash)}, {"action", Hex(k.action_hash)}, {"completed", state.completed},
                {"calls", calls},             {"memory", memory},     {"events", events}};
  // A JSON string holds UTF-8 only: a key of other bytes goes as hex, so
  // that every byte string survives (a UTF-8 key keeps its readable form).
  if (IsValidUtf8(k.key)) {
    value["key"] = k.key;
  } else {
    value["key_hex"] = HexBytes(k.key);
  }
  return value.dump();
}

Result<DecodedState> state_codec_internal::DecodeStateValueDom(const std::string& value) {
  try {
    const json doc = json::parse(value);
    if (!doc.is_object()) throw std::invalid_argument("the value is not a JSON object");
    const int64_t version = Integer(doc, "v");
    if (version != kStateFormatVersion) {
      return Status(StatusCode::kInvalidRecovery,
                    fmt::format("state format version {} is not supported (expected {})", version,
                                kStateFormatVersion));
    }
    DecodedState out;
    if (doc.contains("key_hex")) {
      std::optional<std::string> key = state_codec_internal::ParseHexBytes(Text(doc, "key_hex"));
      if (!key) return Status(StatusCode::kInvalidRecovery, "state value: key_hex is not an even number of hex digits");
      out.state_key.key = *std::move(key);
    } else {
      out.state_key.key = Text(doc, "key");
    }
    out.state_key.seq = Integer(doc, "seq");
    if (!ParseHex64(Text(doc, "event"), out.state_key.event_hash) ||
        !ParseHex64(Text(doc, "action"), out.state_key.action_hash)) {
      return Status(StatusCode::kInvalidRecovery, "state value: event or action hash is not 16 hex digits");
    }
    out.state.completed = Boolean(doc, "completed");
    for (const json& c : List(doc, "calls")) {
      CallResult call;
      call.function_id = Text(c, "fn");
      if (!ParseHex64(Text(c, "args"), call.args_digest)) {
        return Status(StatusCode::kInvalidRecovery, "state value: call args digest is not 16 hex digits");
      }
      call.status = StatusOrThrow(Text(c, "status"));
      call.result = Integer(c, "result");
      call.error = Text(c, "error");
      out.state.call_results.push_back(std::move(call));
    }
    for (const json& m : List(doc, "memory")) {
      out.state.memory_updates.push_back({Text(m, "slot"), Integer(m, "value")});
    }
    for (const json& e : List(doc, "events")) {
      out.state.emitted_events.push_back({Text(e, "type"), Integer(e, "value")});
    }
    return out;
  } catch (const std::exception& error) {
    return Status(StatusCode::kInvalidRecovery, fmt::format("state value does not decode: {}", error.what()));
  }
}

bool state_codec_internal::ParseHex64(std::string_view text, uint64_t& out) {
  if (text.size() != 16) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::optional<std::string> state_codec_internal::ParseHexBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    unsigned value = 0;
    for (size_t j = i; j < i + 2; ++j) {
      const char c = hex[j];
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (digit < 0) return std::nullopt;
      value = value * 16 + static_cast<unsigned>(digit);
    }
    out.push_back(static_cast<char>(value));
  }
  return out;
}

std::optional<CallStatus> state_codec_internal::ParseCallStatus(std::string_view text) {
  if (text == "PENDING") return CallStatus::kPending;
  if (text == "SUCCEEDED") return CallStatus::kSucceeded;
  if (text == "FAILED") return CallStatus::kFailed;
  return std::nullopt;
}

uint64_t StateDigest(const StateKey& k, const ActionState& state) {
  uint64_t d = HashString(k.key);
  d = HashCombine(d, static_cast<uint64_t>(k.seq));
  d = HashCombine(d, k.event_hash);
  d = HashCombine(d, k.action_hash);
  d = HashCombine(d, state.completed ? 1 : 0);
  d = HashCombine(d, state.call_results.size());
  for (const CallResult& c : state.call_results) {
    d = HashCombine(d, HashString(c.function_id));
    d = HashCombine(d, c.args_digest);
    d = HashCombine(d, static_cast<uint64_t>(c.status));
    d = HashCombine(d, static_cast<uint64_t>(c.result));
    d = HashCombine(d, HashString(c.error));
  }
  d = HashCombine(d, state.memory_updates.size());
  for (const MemoryUpdate& m : state.memory_updates) {
    d = HashCombine(d, HashString(m.slot));
    d = HashCombine(d, static_cast<uint64_t>(m.value));
  }
  d = HashCombine(d, state.emitted_events.size());
  for (const EmittedEvent& e : state.emitted_events) {
    d = HashCombine(d, HashString(e.type));
    d = HashCombine(d, static_cast<uint64_t>(e.value));
  }
  return d;
}

namespace {
constexpr std::string_view kCleanupSuffix = "_cleanup";
}  // namespace

std::string EncodeCleanupKey(const std::string& input_key) { return input_key + std::string(kCleanupSuffix); }

std::optional<std::string> ParseCleanupKey(const std::string& record_key) {
  if (!record_key.ends_with(kCleanupSuffix)) return std::nullopt;
  return record_key.substr(0, record_key.size() - kCleanupSuffix.size());
}

std::optional<int64_t> ParseCleanupValue(const std::string& value) {
  if (value.empty() || value.size() > 18) return std::nullopt;
  int64_t seq = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    seq = seq * 10 + (c - '0');
  }
  return seq;
}

int32_t PartitionForKey(const std::string& key, int32_t partitions) {
  DURASIM_CHECK_GE(partitions, 1);  // a topic has at least one partition
  const int32_t partition = static_cast<int32_t>(HashString(key) % static_cast<uint64_t>(partitions));
  DURASIM_CHECK(partition >= 0 && partition < partitions);
  return partition;
}

}  // namespace durasim
