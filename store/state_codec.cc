// State codec implementation: record keys, the dispatch between the fast
// and the reference value codec, and the reference codec (nlohmann::json).
#include "store/state_codec.h"

#include "store/state_codec_internal.h"
#include "store/utf8.h"

#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

#include "store/check.h"
#include "store/format.h"
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

// The value of each byte as a hex digit, or kNotHex. Two tables, since a
// record key and key_hex take lowercase only and a hash field either case.
constexpr uint8_t kNotHex = 0x10;
struct HexValues {
  uint8_t of[256];
};
constexpr HexValues MakeHexValues(bool uppercase) {
  HexValues values{};
  for (int c = 0; c < 256; ++c) {
    values.of[c] = c >= '0' && c <= '9'                ? static_cast<uint8_t>(c - '0')
                   : c >= 'a' && c <= 'f'              ? static_cast<uint8_t>(c - 'a' + 10)
                   : uppercase && c >= 'A' && c <= 'F' ? static_cast<uint8_t>(c - 'A' + 10)
                                                       : kNotHex;
  }
  return values;
}
constexpr HexValues kHexEitherCase = MakeHexValues(true);
constexpr HexValues kHexLowercase = MakeHexValues(false);

// 16 hex digits at `digits` as `table` reads them; false when one is not a
// digit. Branch-free: the kNotHex bit of any digit survives the OR.
bool Hex64At(const char* digits, const HexValues& table, uint64_t& out) {
  uint64_t value = 0;
  uint8_t seen = 0;
  for (int i = 0; i < 16; ++i) {
    const uint8_t digit = table.of[static_cast<unsigned char>(digits[i])];
    seen |= digit;
    value = (value << 4) | (digit & 0xf);
  }
  if (seen & kNotHex) return false;
  out = value;
  return true;
}

// The canonical record key's parse, in one pass from the right: the last 33
// bytes two '_'-led 16-digit lowercase hashes, before them '_' and a seq of
// 1..19 decimal digits, no leading zero, at most int64's maximum. Such a key
// is one ParseRecordKeySlow accepts, with the same StateKey: no field holds
// '_', so the slow split finds the same fields, each parses, and the
// re-encoding is the key itself. Anything else: nothing, and the slow parser
// decides with its messages.
std::optional<StateKey> ParseCanonicalRecordKey(std::string_view record_key) {
  constexpr size_t kHashDigits = 16;
  constexpr size_t kSeqDigitsMax = 19;  // int64's maximum has 19 digits
  constexpr size_t kShortest = 1 + 1 + 1 + kHashDigits + 1 + kHashDigits;  // "_0_<event>_<action>"
  const size_t size = record_key.size();
  if (size < kShortest) return std::nullopt;
  const char* text = record_key.data();
  const size_t action_at = size - kHashDigits;
  const size_t event_at = action_at - 1 - kHashDigits;
  const size_t seq_end = event_at - 1;
  if (text[action_at - 1] != '_' || text[seq_end] != '_') return std::nullopt;
  StateKey k;
  if (!Hex64At(text + event_at, kHexLowercase, k.event_hash) ||
      !Hex64At(text + action_at, kHexLowercase, k.action_hash)) {
    return std::nullopt;
  }
  size_t seq_at = seq_end;
  while (seq_at > 0 && seq_end - seq_at <= kSeqDigitsMax && text[seq_at - 1] >= '0' && text[seq_at - 1] <= '9') {
    --seq_at;
  }
  const size_t seq_digits = seq_end - seq_at;
  if (seq_at == 0 || text[seq_at - 1] != '_' || seq_digits == 0 || seq_digits > kSeqDigitsMax ||
      (text[seq_at] == '0' && seq_digits > 1)) {
    return std::nullopt;
  }
  uint64_t seq = 0;  // 19 digits fit in uint64
  for (size_t i = seq_at; i < seq_end; ++i) seq = seq * 10 + static_cast<uint64_t>(text[i] - '0');
  if (seq > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  k.seq = static_cast<int64_t>(seq);
  k.key.assign(text, seq_at - 1);
  // The fields tile the record key: "<key>_<seq>_<event>_<action>".
  DURASIM_CHECK_EQ(k.key.size() + 1 + seq_digits + 1 + kHashDigits + 1 + kHashDigits, size);
  return k;
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

namespace {

// What follows the input key in its record key, "_<seq>_<event hash>_<action
// hash>", at most 1 + 20 + 1 + 16 + 1 + 16 bytes, built on the stack.
class RecordKeySuffix {
 public:
  explicit RecordKeySuffix(const StateKey& k) {
    char* end = bytes_;
    *end++ = '_';
    end = std::to_chars(end, bytes_ + sizeof bytes_, k.seq).ptr;
    *end++ = '_';
    end = state_codec_internal::WriteHex64(end, k.event_hash);
    *end++ = '_';
    end = state_codec_internal::WriteHex64(end, k.action_hash);
    size_ = static_cast<size_t>(end - bytes_);
  }
  std::string_view view() const { return std::string_view(bytes_, size_); }

 private:
  char bytes_[64];
  size_t size_;
};

}  // namespace

std::string EncodeRecordKey(const StateKey& k) {
  const RecordKeySuffix suffix(k);
  std::string out;
  out.reserve(k.key.size() + suffix.view().size());
  out.append(k.key).append(suffix.view());
  return out;
}

bool IsRecordKeyOf(std::string_view record_key, const StateKey& k) {
  const RecordKeySuffix suffix(k);
  return record_key.size() == k.key.size() + suffix.view().size() && record_key.starts_with(k.key) &&
         record_key.ends_with(suffix.view());
}

Result<StateKey> ParseRecordKey(const std::string& record_key) {
  if (std::optional<StateKey> k = ParseCanonicalRecordKey(record_key)) return *std::move(k);
  return state_codec_internal::ParseRecordKeySlow(record_key);
}

std::optional<StateKey> state_codec_internal::ParseRecordKeyFast(std::string_view record_key) {
  return ParseCanonicalRecordKey(record_key);
}

Result<StateKey> state_codec_internal::ParseRecordKeySlow(const std::string& record_key) {
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

namespace {

// A SAX handler that builds nothing and keeps the parse error, if any: the
// exception json::parse would throw, without the throw (values that are not
// JSON, such as tombstones, are common under faults, and unwinding costs more
// than the parse).
class ParseErrorOf final : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const json::exception& error) override {
    message = error.what();
    return false;  // the first error ends the parse, as json::parse's throw does
  }

  std::optional<std::string> message;
};

Status Undecodable(std::string_view why) {
  return Status(StatusCode::kInvalidRecovery, fmt::format("state value does not decode: {}", why));
}

}  // namespace

std::optional<std::string> state_codec_internal::JsonParseError(const std::string& value) {
  ParseErrorOf error;
  const bool parsed = json::sax_parse(value, &error);
  DURASIM_CHECK_EQ(parsed, !error.message.has_value());  // the handler fails only on an error
  return std::move(error.message);
}

Result<DecodedState> state_codec_internal::DecodeStateValueDom(const std::string& value) {
  if (std::optional<std::string> error = JsonParseError(value)) return Undecodable(*error);
  try {
    const json doc = json::parse(value);  // well-formed: no parse error is left to throw
    if (!doc.is_object()) return Undecodable("the value is not a JSON object");
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
    return Undecodable(error.what());
  }
}

bool state_codec_internal::ParseHex64(std::string_view text, uint64_t& out) {
  return text.size() == 16 && Hex64At(text.data(), kHexEitherCase, out);
}

std::optional<std::string> state_codec_internal::ParseHexBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out(hex.size() / 2, '\0');
  uint8_t seen = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const uint8_t high = kHexLowercase.of[static_cast<unsigned char>(hex[2 * i])];
    const uint8_t low = kHexLowercase.of[static_cast<unsigned char>(hex[2 * i + 1])];
    seen |= high | low;
    out[i] = static_cast<char>(((high & 0xf) << 4) | (low & 0xf));
  }
  if (seen & kNotHex) return std::nullopt;
  return out;
}

std::optional<CallStatus> state_codec_internal::ParseCallStatus(std::string_view text) {
  if (text == "PENDING") return CallStatus::kPending;
  if (text == "SUCCEEDED") return CallStatus::kSucceeded;
  if (text == "FAILED") return CallStatus::kFailed;
  return std::nullopt;
}

namespace {

// HashString(key), remembering the last key hashed on this thread: a run
// digests the states of a few input keys over and over, and hashing a long
// key byte by byte costs more than comparing it.
uint64_t KeyHash(const std::string& key) {
  thread_local std::string last_key;
  thread_local uint64_t last_hash = HashString("");
  if (key != last_key) {
    last_key = key;
    last_hash = HashString(key);
  }
  return last_hash;
}

}  // namespace

uint64_t StateDigest(const StateKey& k, const ActionState& state) {
  uint64_t d = KeyHash(k.key);
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
  DURASIM_CHECK_GE(seq, 0);  // 18 decimal digits never overflow an int64
  return seq;
}

int32_t PartitionForKey(const std::string& key, int32_t partitions) {
  DURASIM_CHECK_GE(partitions, 1);  // a topic has at least one partition
  const int32_t partition = static_cast<int32_t>(HashString(key) % static_cast<uint64_t>(partitions));
  DURASIM_CHECK(partition >= 0 && partition < partitions);
  return partition;
}

}  // namespace durasim
