// Unit tests for the state codec: record keys, state values and the
// partition of an input key; and property tests (rapidcheck) of the fast
// value codec against the reference one, and of the fast record-key and
// hex codec against the slow one.
#include "store/state_codec.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "store/state_codec_internal.h"

namespace durasim {
namespace {

using nlohmann::json;

constexpr uint64_t kEvent = 0x00000000000000e1ULL;
constexpr uint64_t kAction = 0x00000000000000a1ULL;

// A state that exercises every field and every call status.
ActionState FullState() {
  ActionState state;
  state.call_results = {
      CallResult{"llm.complete", 0x0123456789abcdefULL, CallStatus::kSucceeded, -42, ""},
      CallResult{"payment.charge", std::numeric_limits<uint64_t>::max(), CallStatus::kFailed, 0,
                 "declined: \"card\" \\ expired \xe2\x9c\x97"},
      CallResult{"search_v2", 0, CallStatus::kPending, 0, ""},
  };
  state.memory_updates = {MemoryUpdate{"count", std::numeric_limits<int64_t>::max()},
                          MemoryUpdate{"", std::numeric_limits<int64_t>::min()}};
  state.emitted_events = {EmittedEvent{"next_step", 7}, EmittedEvent{kOutputEventType, -1}};
  state.completed = true;
  return state;
}

// The JSON of a valid value, for tests that break one field of it.
json ValidValueJson() { return json::parse(EncodeStateValue(StateKey{"k", 3, kEvent, kAction}, FullState())); }

// --- Record keys -----------------------------------------------------------

TEST(RecordKey, EncodesFieldsInOrderWithFixedWidthLowercaseHex) {
  // Strategy: pin the on-log format, which a restore of older data depends on:
  // key, decimal seq, then two 16-digit lowercase hex hashes.
  EXPECT_EQ(EncodeRecordKey(StateKey{"user", 7, 0x1, 0xabcdef}), "user_7_0000000000000001_0000000000abcdef");
  EXPECT_EQ(EncodeRecordKey(StateKey{"", 0, 0, std::numeric_limits<uint64_t>::max()}),
            "_0_0000000000000000_ffffffffffffffff");
}

class RecordKeyRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordKeyRoundTrip, ParseInvertsEncode) {
  // Strategy: the input key may hold any character, including '_' and a whole
  // record key; encode then parse must give back the same StateKey, for
  // extreme seq and hash values too.
  const std::vector<StateKey> state_keys = {
      StateKey{GetParam(), 1, kEvent, kAction},
      StateKey{GetParam(), 0, 0, 0},
      StateKey{GetParam(), std::numeric_limits<int64_t>::max(), std::numeric_limits<uint64_t>::max(),
               0xfedcba9876543210ULL},
  };
  for (const StateKey& state_key : state_keys) {
    const std::string record_key = EncodeRecordKey(state_key);
    Result<StateKey> parsed = ParseRecordKey(record_key);
    ASSERT_TRUE(parsed.ok()) << record_key << ": " << parsed.status().ToString();
    EXPECT_EQ(parsed->key, state_key.key) << record_key;
    EXPECT_EQ(parsed->seq, state_key.seq) << record_key;
    EXPECT_EQ(parsed->event_hash, state_key.event_hash) << record_key;
    EXPECT_EQ(parsed->action_hash, state_key.action_hash) << record_key;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Keys, RecordKeyRoundTrip,
    ::testing::Values("plain", "user_42", "_", "__", "a_b_c_d", "_leading", "trailing_", "12345", "0", "",
                      "na\xc3\xafve-\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87-\xe9\x8d\xb5", "tab\there\nnewline",
                      std::string("nul\0inside", 10), "a_1_0000000000000001_0000000000000002",
                      "x_-1_zz_q", "a_1_0000000000000001_0000000000000002_"));

struct MalformedKey {
  const char* what;
  std::string record_key;
};

class ParseRecordKeyRejects : public ::testing::TestWithParam<MalformedKey> {};

TEST_P(ParseRecordKeyRejects, WithInvalidRecoveryNamingTheKey) {
  // Strategy: each malformed record key is rejected as invalid recovery data,
  // and the message quotes the key so the bad record can be found.
  const MalformedKey& bad = GetParam();
  Result<StateKey> parsed = ParseRecordKey(bad.record_key);
  ASSERT_FALSE(parsed.ok()) << bad.what << ": \"" << bad.record_key << "\" parsed";
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidRecovery) << bad.what;
  EXPECT_NE(parsed.status().message().find("\"" + bad.record_key + "\""), std::string::npos)
      << bad.what << ": " << parsed.status().message();
}

const std::string kHex1 = "0000000000000001";
const std::string kHex2 = "0000000000000002";

INSTANTIATE_TEST_SUITE_P(
    Keys, ParseRecordKeyRejects,
    ::testing::Values(
        MalformedKey{"empty", ""}, MalformedKey{"no separator", "justakey"},
        MalformedKey{"one field missing", "a_1_" + kHex1},
        MalformedKey{"two fields missing", "a_1"},
        MalformedKey{"only separators", "___"},
        MalformedKey{"empty action hash", "a_1_" + kHex1 + "_"},
        MalformedKey{"empty event hash", "a_1__" + kHex2},
        MalformedKey{"empty seq", "a__" + kHex1 + "_" + kHex2},
        MalformedKey{"non-hex event hash", "a_1_000000000000000g_" + kHex2},
        MalformedKey{"non-hex action hash", "a_1_" + kHex1 + "_zzzzzzzzzzzzzzzz"},
        MalformedKey{"hex prefix", "a_1_0x00000000000001_" + kHex2},
        MalformedKey{"short event hash", "a_1_000000000000001_" + kHex2},
        MalformedKey{"long event hash", "a_1_00000000000000001_" + kHex2},
        MalformedKey{"short action hash", "a_1_" + kHex1 + "_1"},
        MalformedKey{"long action hash", "a_1_" + kHex1 + "_" + kHex2 + "0"},
        MalformedKey{"negative seq", "a_-1_" + kHex1 + "_" + kHex2},
        MalformedKey{"plus-signed seq", "a_+1_" + kHex1 + "_" + kHex2},
        MalformedKey{"non-numeric seq", "a_one_" + kHex1 + "_" + kHex2},
        MalformedKey{"fractional seq", "a_1.5_" + kHex1 + "_" + kHex2},
        MalformedKey{"seq with trailing text", "a_1x_" + kHex1 + "_" + kHex2},
        MalformedKey{"seq overflowing int64", "a_9223372036854775808_" + kHex1 + "_" + kHex2},
        MalformedKey{"space in seq", "a_ 1_" + kHex1 + "_" + kHex2}),
    [](const ::testing::TestParamInfo<MalformedKey>& info) {
      std::string name;
      for (const char c : std::string(info.param.what)) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(RecordKey, ParseAcceptsOnlyTheCanonicalEncoding) {
  // Strategy: the store caches rebuilt states under the record key text and
  // looks them up under EncodeRecordKey(state_key), so a key that parses must
  // re-encode to the same text. Feed spellings that name a valid StateKey in a
  // non-canonical way (leading zeros, uppercase hex) and require that they are
  // either rejected or re-encode identically.
  const std::vector<std::string> spellings = {
      "a_01_" + kHex1 + "_" + kHex2,
      "a_1_00000000000000AB_" + kHex2,
      "a_1_" + kHex1 + "_FFFFFFFFFFFFFFFF",
  };
  for (const std::string& record_key : spellings) {
    Result<StateKey> parsed = ParseRecordKey(record_key);
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidRecovery) << record_key;
      continue;
    }
    EXPECT_EQ(EncodeRecordKey(*parsed), record_key) << "non-canonical spelling accepted";
  }
}

// --- State values ----------------------------------------------------------

TEST(StateValue, RoundTripsAFullState) {
  // Strategy: every field of ActionState and of the StateKey, with extreme
  // integers, escapes and non-ASCII text, survives encode then decode.
  const StateKey state_key{"in_put_\xc3\xa9", 12, 0xdeadbeefcafef00dULL, std::numeric_limits<uint64_t>::max()};
  const ActionState state = FullState();
  Result<DecodedState> decoded = DecodeStateValue(EncodeStateValue(state_key, state));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->state_key, state_key);
  EXPECT_EQ(decoded->state, state);
  EXPECT_EQ(decoded->state.call_results.size(), 3u);
  EXPECT_EQ(decoded->state.call_results[1].status, CallStatus::kFailed);
  EXPECT_EQ(decoded->state.call_results[2].status, CallStatus::kPending);
}

TEST(StateValue, RoundTripsAnEmptyIncompleteState) {
  // Strategy: the smallest state (no calls, no memory, no events, not
  // completed) decodes to an equal, still-empty state.
  const StateKey state_key{"", 0, 0, 0};
  Result<DecodedState> decoded = DecodeStateValue(EncodeStateValue(state_key, ActionState{}));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->state_key, state_key);
  EXPECT_EQ(decoded->state, ActionState{});
  EXPECT_FALSE(decoded->state.completed);
}

TEST(StateValue, EncodingRepeatsTheStateKeyAndVersion) {
  // Strategy: the value carries the format version and the state key, which
  // is what lets a restore detect a key/value mismatch.
  const json value = json::parse(EncodeStateValue(StateKey{"k", 3, kEvent, kAction}, ActionState{}));
  EXPECT_EQ(value.at("v"), kStateFormatVersion);
  EXPECT_EQ(value.at("key"), "k");
  EXPECT_EQ(value.at("seq"), 3);
  EXPECT_EQ(value.at("event"), "00000000000000e1");
  EXPECT_EQ(value.at("action"), "00000000000000a1");
}

struct BadValue {
  const char* what;
  std::string value;
  const char* message_names;  // a substring the error message must contain
};

class DecodeStateValueRejects : public ::testing::TestWithParam<BadValue> {};

TEST_P(DecodeStateValueRejects, WithInvalidRecoveryNamingTheProblem) {
  // Strategy: each broken value is rejected as invalid recovery data (never
  // an exception, never a partial state) and the message names what is wrong.
  const BadValue& bad = GetParam();
  Result<DecodedState> decoded = DecodeStateValue(bad.value);
  ASSERT_FALSE(decoded.ok()) << bad.what << ": decoded " << bad.value;
  EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidRecovery) << bad.what;
  EXPECT_NE(decoded.status().message().find(bad.message_names), std::string::npos)
      << bad.what << ": message \"" << decoded.status().message() << "\" does not contain \"" << bad.message_names
      << "\"";
}

// The valid value with `path` (a JSON pointer) removed.
std::string Without(const std::string& path) {
  json value = ValidValueJson();
  const json::json_pointer pointer(path);
  value[pointer.parent_pointer()].erase(pointer.back());
  return value.dump();
}

// The valid value with `path` (a JSON pointer) replaced by `replacement`.
std::string With(const std::string& path, json replacement) {
  json value = ValidValueJson();
  value[json::json_pointer(path)] = std::move(replacement);
  return value.dump();
}

// Removing an element of an array needs the index, not a key.
std::string WithoutCallField(const std::string& field) {
  json value = ValidValueJson();
  value["calls"][0].erase(field);
  return value.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Garbage, DecodeStateValueRejects,
    ::testing::Values(BadValue{"empty", "", "does not decode"},
                      BadValue{"not json", "hello", "does not decode"},
                      BadValue{"corrupted bytes", "\x01garbage{", "does not decode"},
                      BadValue{"truncated", ValidValueJson().dump().substr(0, 40), "does not decode"},
                      BadValue{"json null", "null", "does not decode"},
                      BadValue{"json array", "[1,2,3]", "does not decode"},
                      BadValue{"json string", "\"v\"", "does not decode"}));

INSTANTIATE_TEST_SUITE_P(
    Version, DecodeStateValueRejects,
    ::testing::Values(BadValue{"version 2", With("/v", 2), "version 2 is not supported"},
                      BadValue{"version 0", With("/v", 0), "version 0 is not supported"},
                      BadValue{"version -1", With("/v", -1), "version -1 is not supported"},
                      BadValue{"version missing", Without("/v"), "field \"v\" is missing"},
                      BadValue{"version a string", With("/v", "1"), "field \"v\" is not an integer"}));

INSTANTIATE_TEST_SUITE_P(
    MissingField, DecodeStateValueRejects,
    ::testing::Values(BadValue{"key", Without("/key"), "field \"key\" is missing"}, BadValue{"seq", Without("/seq"), "field \"seq\" is missing"},
                      BadValue{"event", Without("/event"), "field \"event\" is missing"},
                      BadValue{"action", Without("/action"), "field \"action\" is missing"},
                      BadValue{"completed", Without("/completed"), "field \"completed\" is missing"},
                      BadValue{"calls", Without("/calls"), "field \"calls\" is missing"},
                      BadValue{"memory", Without("/memory"), "field \"memory\" is missing"},
                      BadValue{"events", Without("/events"), "field \"events\" is missing"},
                      BadValue{"call fn", WithoutCallField("fn"), "field \"fn\" is missing"},
                      BadValue{"call args", WithoutCallField("args"), "field \"args\" is missing"},
                      BadValue{"call status", WithoutCallField("status"), "field \"status\" is missing"},
                      BadValue{"call result", WithoutCallField("result"), "field \"result\" is missing"},
                      BadValue{"call error", WithoutCallField("error"), "field \"error\" is missing"},
                      BadValue{"memory slot", Without("/memory/0/slot"), "field \"slot\" is missing"},
                      BadValue{"memory value", Without("/memory/0/value"), "field \"value\" is missing"},
                      BadValue{"event type", Without("/events/0/type"), "field \"type\" is missing"},
                      BadValue{"event value", Without("/events/0/value"), "field \"value\" is missing"}));

INSTANTIATE_TEST_SUITE_P(
    WrongType, DecodeStateValueRejects,
    ::testing::Values(BadValue{"key a number", With("/key", 5), "field \"key\" is not a string"},
                      BadValue{"seq a string", With("/seq", "3"), "field \"seq\" is not an integer"},
                      BadValue{"seq a bool", With("/seq", true), "field \"seq\" is not an integer"},
                      BadValue{"event a number", With("/event", 225), "field \"event\" is not a string"},
                      BadValue{"action null", With("/action", nullptr), "field \"action\" is not a string"},
                      BadValue{"completed a number", With("/completed", 1), "field \"completed\" is not a boolean"},
                      BadValue{"completed a string", With("/completed", "true"), "field \"completed\" is not a boolean"},
                      BadValue{"call fn a number", With("/calls/0/fn", 1), "field \"fn\" is not a string"},
                      BadValue{"call result a string", With("/calls/0/result", "-42"), "field \"result\" is not an integer"},
                      BadValue{"call error an array", With("/calls/0/error", json::array()), "field \"error\" is not a string"},
                      BadValue{"call a number", With("/calls/0", 5), "expected an object holding \"fn\""},
                      BadValue{"calls a string", With("/calls", "x"), "field \"calls\" is not a list"},
                      BadValue{"memory value a string", With("/memory/0/value", "1"), "field \"value\" is not an integer"},
                      BadValue{"event value an object", With("/events/0/value", json::object()),
                               "field \"value\" is not an integer"}));

INSTANTIATE_TEST_SUITE_P(
    BadHashOrStatus, DecodeStateValueRejects,
    ::testing::Values(BadValue{"event hash not hex", With("/event", "00000000000000zz"), "event or action hash"},
                      BadValue{"event hash short", With("/event", "e1"), "event or action hash"},
                      BadValue{"action hash long", With("/action", "000000000000000a10"), "event or action hash"},
                      BadValue{"args digest not hex", With("/calls/0/args", "not-a-digest-at!"), "args digest"},
                      BadValue{"args digest short", With("/calls/0/args", "1"), "args digest"},
                      BadValue{"unknown status", With("/calls/0/status", "DONE"), "unknown call status \"DONE\""},
                      BadValue{"lowercase status", With("/calls/0/status", "succeeded"),
                               "unknown call status \"succeeded\""},
                      BadValue{"empty status", With("/calls/0/status", ""), "unknown call status \"\""}));

TEST(StateValue, DecodeRejectsLossyNumbersAndNonArrayLists) {
  // Strategy: values our encoder never writes must not decode to something
  // else silently: a fractional seq or result, a boolean version, and a null
  // or object where a list belongs.
  const std::vector<std::pair<const char*, std::string>> lossy = {
      {"fractional seq", With("/seq", 3.5)},
      {"fractional result", With("/calls/0/result", -42.9)},
      {"boolean version", With("/v", true)},
      {"calls null", With("/calls", nullptr)},
      {"calls an object", With("/calls", json::object())},
      {"memory null", With("/memory", nullptr)},
      {"events an object", With("/events", json::object())},
  };
  for (const auto& [what, value] : lossy) {
    Result<DecodedState> decoded = DecodeStateValue(value);
    EXPECT_FALSE(decoded.ok()) << what << " decoded";
    if (!decoded.ok()) {
      EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidRecovery) << what;
    }
  }
}

// --- Partitions ------------------------------------------------------------

TEST(PartitionForKey, IsPinnedAcrossBuilds) {
  // Strategy: the partition of a key is saved data (records already on the
  // topic), so it must never change: pin values computed once from the
  // FNV-1a + SplitMix64 hash.
  EXPECT_EQ(PartitionForKey("a", 4), 3);
  EXPECT_EQ(PartitionForKey("b", 4), 0);
  EXPECT_EQ(PartitionForKey("c", 4), 2);
  EXPECT_EQ(PartitionForKey("f", 4), 1);
  EXPECT_EQ(PartitionForKey("", 4), 0);
  EXPECT_EQ(PartitionForKey("h", 16), 8);
  EXPECT_EQ(PartitionForKey("x", 16), 15);
  EXPECT_EQ(PartitionForKey("k2", 16), 13);
  EXPECT_EQ(PartitionForKey("user-42", 8), 3);
}

TEST(PartitionForKey, IsStableAndInRange) {
  // Strategy: for many keys and partition counts, the partition is in
  // [0, partitions), the same on every call, and a single partition takes
  // everything; keys spread over more than one partition.
  const std::vector<int32_t> counts = {1, 2, 3, 4, 7, 16, 1000};
  for (const int32_t partitions : counts) {
    std::vector<int> hits(static_cast<size_t>(partitions), 0);
    for (int i = 0; i < 500; ++i) {
      const std::string key = "key_" + std::to_string(i);
      const int32_t partition = PartitionForKey(key, partitions);
      ASSERT_GE(partition, 0) << key << " / " << partitions;
      ASSERT_LT(partition, partitions) << key << " / " << partitions;
      ASSERT_EQ(PartitionForKey(key, partitions), partition) << key;
      ++hits[static_cast<size_t>(partition)];
    }
    if (partitions == 1) {
      EXPECT_EQ(hits[0], 500);
    } else {
      int used = 0;
      for (const int h : hits) used += h > 0 ? 1 : 0;
      EXPECT_GT(used, 1) << "every key landed on one partition of " << partitions;
    }
  }
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

TEST(CleanupKey, RoundTripsAndNeverParsesAsAStateKey) {
  // Strategy: a cleanup record's key gives back its input key (also one with
  // underscores, or empty), is never a state's record key, and a state's
  // record key is never a cleanup key; the value is a decimal number only.
  for (const std::string key : {"a", "x_1_00_01", ""}) {
    ASSERT_EQ(ParseCleanupKey(EncodeCleanupKey(key)), key);
    EXPECT_FALSE(ParseRecordKey(EncodeCleanupKey(key)).ok());
  }
  EXPECT_FALSE(ParseCleanupKey(EncodeRecordKey(StateKey{"a_cleanup", 1, 2, 3})).has_value());
  EXPECT_EQ(ParseCleanupValue("17"), 17);
  EXPECT_FALSE(ParseCleanupValue("").has_value());
  EXPECT_FALSE(ParseCleanupValue("-1").has_value());
  EXPECT_FALSE(ParseCleanupValue("1x").has_value());
}

TEST(StateDigest, EqualStatesEqualDigestsAndEveryFieldCounts) {
  // Strategy: the digest the harness compares states by is a function of the
  // content: equal for a copy and for a decoded round trip, different when
  // any single field of the key or the state changes.
  const StateKey key{"k_1", 3, 0xe1, 0xa1};
  const ActionState state = FullState();
  const uint64_t digest = StateDigest(key, state);
  EXPECT_EQ(digest, StateDigest(key, ActionState(state)));
  Result<DecodedState> decoded = DecodeStateValue(EncodeStateValue(key, state));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(digest, StateDigest(decoded->state_key, decoded->state));

  StateKey other_key = key;
  other_key.seq = 4;
  EXPECT_NE(digest, StateDigest(other_key, state));
  ActionState changed = state;
  changed.completed = !changed.completed;
  EXPECT_NE(digest, StateDigest(key, changed));
  changed = state;
  changed.call_results[0].result += 1;
  EXPECT_NE(digest, StateDigest(key, changed));
  changed = state;
  changed.call_results[0].status = CallStatus::kPending;
  EXPECT_NE(digest, StateDigest(key, changed));
  changed = state;
  changed.memory_updates.push_back({"slot", 1});
  EXPECT_NE(digest, StateDigest(key, changed));
  changed = state;
  changed.emitted_events.back().value += 1;
  EXPECT_NE(digest, StateDigest(key, changed));

  // The digest remembers the last input key's hash: a key, another, the
  // first again each give their own digest, the same as the first time.
  StateKey other_input = key;
  other_input.key = "k_2";
  const uint64_t other_digest = StateDigest(other_input, state);
  EXPECT_NE(digest, other_digest);
  EXPECT_EQ(digest, StateDigest(key, state));
  EXPECT_EQ(other_digest, StateDigest(other_input, state));
  other_input.key = "";
  EXPECT_NE(digest, StateDigest(other_input, state));
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

// Strategy: keys are bytes. A key that is not UTF-8 (with a NUL inside)
// survives the value's encoding and decoding byte for byte, and the record
// key's; a UTF-8 key keeps its readable "key" field.
TEST(StateCodecTest, AKeyOfArbitraryBytesRoundTrips) {
  const StateKey key{std::string("\x80\xff\0k", 4), 3, 0x1234, 0xabcd};
  ActionState state;
  state.completed = true;
  const std::string value = EncodeStateValue(key, state);
  EXPECT_NE(value.find("\"key_hex\":\"80ff006b\""), std::string::npos) << value;
  Result<DecodedState> decoded = DecodeStateValue(value);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->state_key, key);
  Result<StateKey> parsed = ParseRecordKey(EncodeRecordKey(key));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, key);
  EXPECT_NE(EncodeStateValue(StateKey{"plain", 1, 1, 1}, state).find("\"key\":\"plain\""), std::string::npos);
  EXPECT_FALSE(DecodeStateValue(R"({"v":1,"key_hex":"8","seq":1,"event":"0000000000000001","action":"0000000000000001","completed":true,"calls":[],"memory":[],"events":[]})").ok());
}

}  // namespace
}  // namespace durasim

// --- The fast value codec against the reference (rapidcheck) ---------------

namespace durasim {
namespace {

namespace internal = state_codec_internal;
namespace gen = rc::gen;

// Which bytes a generated text holds.
enum class TextBytes { kAscii, kUtf8, kAny };

// A text built of pieces: printable ASCII and what JSON escapes; with kUtf8
// UTF-8 of every length too; with kAny also bytes that are not UTF-8 (a
// lone continuation, a truncated sequence, an overlong form, a surrogate,
// past U+10FFFF, any byte).
rc::Gen<std::string> GenText(TextBytes bytes) {
  static const std::vector<std::string> kAscii = {
      "a", "Z", "0", "_", "-", " ", "/", "\"", "\\", "\x7f", "\n", "\t", "\b", "\f", "\r", std::string(1, '\0'),
      "\x01", "\x1f", "u00", "k_1_0000000000000001_0000000000000002", kOutputEventType};
  static const std::vector<std::string> kUtf8 = {"\xc3\xa9", "\xe2\x9c\x97", "\xf0\x9f\x98\x80"};
  static const std::vector<std::string> kNotUtf8 = {"\x80", "\xff", "\xc3", "\xc0\x80", "\xed\xa0\x80",
                                                    "\xf4\x90\x80\x80", "\xe2\x9c"};
  const auto any_byte = gen::map(gen::arbitrary<unsigned char>(), [](unsigned char c) { return std::string(1, char(c)); });
  rc::Gen<std::string> piece = gen::elementOf(kAscii);
  if (bytes == TextBytes::kUtf8) {
    piece = gen::weightedOneOf<std::string>({{12, gen::elementOf(kAscii)}, {1, gen::elementOf(kUtf8)}});
  } else if (bytes == TextBytes::kAny) {
    piece = gen::weightedOneOf<std::string>({{12, gen::elementOf(kAscii)},
                                             {1, gen::elementOf(kUtf8)},
                                             {1, gen::elementOf(kNotUtf8)},
                                             {1, any_byte}});
  }
  return gen::map(gen::container<std::vector<std::string>>(piece), [](const std::vector<std::string>& pieces) {
    std::string text;
    for (const std::string& p : pieces) text += p;
    return text;
  });
}

// Any of the three kinds of text.
rc::Gen<TextBytes> GenTextBytes() {
  return gen::element(TextBytes::kAscii, TextBytes::kUtf8, TextBytes::kAny);
}

rc::Gen<int64_t> GenInteger() {
  return gen::weightedOneOf<int64_t>(
      {{3, gen::arbitrary<int64_t>()},
       {1, gen::element<int64_t>(0, 1, -1, 10, std::numeric_limits<int64_t>::min(),
                                 std::numeric_limits<int64_t>::max())}});
}

rc::Gen<uint64_t> GenHash() {
  return gen::weightedOneOf<uint64_t>(
      {{3, gen::arbitrary<uint64_t>()}, {1, gen::element<uint64_t>(0, std::numeric_limits<uint64_t>::max())}});
}

rc::Gen<StateKey> GenStateKey() {
  return gen::build<StateKey>(gen::set(&StateKey::key, gen::mapcat(GenTextBytes(), GenText)), gen::set(&StateKey::seq, GenInteger()),
                              gen::set(&StateKey::event_hash, GenHash()),
                              gen::set(&StateKey::action_hash, GenHash()));
}

// A state whose texts hold `bytes`.
rc::Gen<ActionState> GenState(TextBytes bytes) {
  const auto call = gen::build<CallResult>(
      gen::set(&CallResult::function_id, GenText(bytes)), gen::set(&CallResult::args_digest, GenHash()),
      gen::set(&CallResult::status,
               gen::element(CallStatus::kPending, CallStatus::kSucceeded, CallStatus::kFailed)),
      gen::set(&CallResult::result, GenInteger()), gen::set(&CallResult::error, GenText(bytes)));
  const auto memory = gen::build<MemoryUpdate>(gen::set(&MemoryUpdate::slot, GenText(bytes)),
                                               gen::set(&MemoryUpdate::value, GenInteger()));
  const auto event = gen::build<EmittedEvent>(gen::set(&EmittedEvent::type, GenText(bytes)),
                                              gen::set(&EmittedEvent::value, GenInteger()));
  return gen::build<ActionState>(gen::set(&ActionState::call_results, gen::container<std::vector<CallResult>>(call)),
                                 gen::set(&ActionState::memory_updates, gen::container<std::vector<MemoryUpdate>>(memory)),
                                 gen::set(&ActionState::emitted_events, gen::container<std::vector<EmittedEvent>>(event)),
                                 gen::set(&ActionState::completed, gen::arbitrary<bool>()));
}

// What an encoder did: its bytes, or the exception it threw.
std::string EncodeOutcome(const std::function<std::string()>& encode) {
  try {
    return "bytes " + encode();
  } catch (const std::exception& error) {
    return std::string("throws ") + typeid(error).name() + ": " + error.what();
  }
}

// A decode result as text: the state re-encoded, or the code and message.
std::string DecodeOutcome(const Result<DecodedState>& decoded) {
  if (!decoded.ok()) return "error " + decoded.status().ToString();
  return "state " + internal::EncodeStateValueDom(decoded->state_key, decoded->state);
}

// Checks the fast decoder against the DOM decoder on `value`: whatever the
// fast reader accepts, the DOM decoder reads to the same state; and the
// public decoder's result, error text included, is the DOM decoder's.
void CheckDecodersAgree(const std::string& value) {
  const Result<DecodedState> dom = internal::DecodeStateValueDom(value);
  const std::optional<DecodedState> fast = internal::ReadCanonicalStateValue(value);
  if (fast) {
    RC_ASSERT(dom.ok());
    RC_ASSERT(fast->state_key == dom->state_key);
    RC_ASSERT(fast->state == dom->state);
  }
  const Result<DecodedState> decoded = DecodeStateValue(value);
  RC_ASSERT(DecodeOutcome(decoded) == DecodeOutcome(dom));
  if (decoded.ok()) RC_ASSERT(decoded->state == dom->state && decoded->state_key == dom->state_key);
}

// Strategy: on any state, texts of any bytes included, the streaming
// writer writes the reference encoder's bytes, and where that throws
// (a text that is not UTF-8) EncodeStateValue throws the same exception.
RC_GTEST_PROP(StateValueCodec, WriterWritesTheReferenceBytes, ()) {
  const StateKey key = *GenStateKey();
  const ActionState state = *GenState(*GenTextBytes());
  const std::string reference = EncodeOutcome([&] { return internal::EncodeStateValueDom(key, state); });
  RC_ASSERT(EncodeOutcome([&] { return EncodeStateValue(key, state); }) == reference);
  const std::optional<std::string> written = internal::WriteStateValue(key, state);
  RC_ASSERT(written.has_value() == reference.starts_with("bytes "));
  if (written) RC_ASSERT("bytes " + *written == reference);
}

// Strategy: for states with UTF-8 texts (keys of any bytes), the value is
// nlohmann's canonical form (parse then dump gives it back), decodes to the
// state, and the strict reader reads it without falling back.
RC_GTEST_PROP(StateValueCodec, EncodedValueIsCanonicalAndRoundTrips, ()) {
  const StateKey key = *GenStateKey();
  const ActionState state = *GenState(*gen::element(TextBytes::kAscii, TextBytes::kUtf8));
  const std::string value = EncodeStateValue(key, state);
  RC_ASSERT(json::parse(value).dump() == value);
  const Result<DecodedState> decoded = DecodeStateValue(value);
  RC_ASSERT(decoded.ok());
  RC_ASSERT(decoded->state_key == key);
  RC_ASSERT(decoded->state == state);
  RC_ASSERT(internal::ReadCanonicalStateValue(value).has_value());
  CheckDecodersAgree(value);
}

// Bytes that change how a value reads: numbers out of the canonical form
// or out of int64, escapes, whitespace, structure, a BOM.
const std::vector<std::string> kInserts = {
    " ", "\n", "\t", "\r", "0", "-", "-0", "00", ".0", "e2", "E+1", "9223372036854775808", "18446744073709551616",
    "\"", "\\", "\\/", "\\u0041", "\\u004A", "\\u004a", "\\u00e9", "\\u0000", "\\ud83d\\ude00", "\\x", "\\u12",
    ",", ":", "{", "}", "[", "]", "[]", "{}", "null", "true", "1", "\x7f", "\xc3\xa9", "\x80", "\xef\xbb\xbf",
    ",\"zz\":1", ",\"v\":1", ",\"seq\":2", ",\"key\":\"k\"", ",\"key_hex\":\"6b\"", "A", "F"};

// Numbers the canonical form never writes, or that leave int64.
const std::vector<std::string> kNumbers = {"-0", "01", "-01", "1.0", "1e2", "1E2", "0.5", "-",
                                           "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                                           "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                                           "2", "0", "true", "\"1\"", "null"};

// `out` changed at `at` (`change` 0..3): a byte flipped, a byte inserted,
// a byte deleted, or one of `pieces` inserted; both mutators below start
// with these.
void ChangeBytes(std::string& out, size_t at, int change, const std::vector<std::string>& pieces) {
  const size_t size = out.size();
  switch (change) {
    case 0:
      if (at < size) out[at] = static_cast<char>(out[at] ^ *gen::inRange(1, 256));
      break;
    case 1: out.insert(at, 1, static_cast<char>(*gen::arbitrary<unsigned char>())); break;
    case 2:
      if (at < size) out.erase(at, 1);
      break;
    case 3: out.insert(at, *gen::elementOf(pieces)); break;
  }
}

// `value` changed once: a byte flipped, inserted or deleted, a piece
// inserted, a number replaced, the value truncated or extended, two
// top-level fields swapped, or raw bytes put into a string.
std::string Mutate(const std::string& value) {
  const size_t size = value.size();
  const size_t at = *gen::inRange<size_t>(0, size + 1);
  std::string out = value;
  const int kind = *gen::inRange(0, 9);
  switch (kind) {
    case 0:
    case 1:
    case 2:
    case 3: ChangeBytes(out, at, kind, kInserts); break;
    case 4: {  // a number replaced
      std::vector<size_t> starts;
      for (size_t i = 1; i < size; ++i) {
        if (value[i - 1] == ':' && (value[i] == '-' || (value[i] >= '0' && value[i] <= '9'))) starts.push_back(i);
      }
      if (starts.empty()) break;
      const size_t start = *gen::elementOf(starts);
      size_t end = start + 1;
      while (end < size && value[end] >= '0' && value[end] <= '9') ++end;
      out.replace(start, end - start, *gen::elementOf(kNumbers));
      break;
    }
    case 5: out.resize(at); break;
    case 6: out += *gen::elementOf(std::vector<std::string>{" ", "\n", "x", "{}", "}", std::string(1, '\0')}); break;
    case 7: {  // two top-level fields swapped
      nlohmann::ordered_json doc = nlohmann::ordered_json::parse(value);
      if (!doc.is_object() || doc.empty()) break;
      std::vector<std::pair<std::string, nlohmann::ordered_json>> fields;
      for (const auto& field : doc.items()) fields.emplace_back(field.key(), field.value());
      const size_t i = *gen::inRange<size_t>(0, fields.size());
      const size_t j = *gen::inRange<size_t>(0, fields.size());
      std::swap(fields[i], fields[j]);
      nlohmann::ordered_json swapped = nlohmann::ordered_json::object();
      for (auto& [name, field] : fields) swapped[name] = std::move(field);
      out = swapped.dump();
      break;
    }
    case 8: {  // raw bytes, UTF-8 or not, at the start of a string value
      std::vector<size_t> starts;
      for (size_t i = 2; i < size; ++i) {
        if (value[i - 2] == ':' && value[i - 1] == '"') starts.push_back(i);
      }
      if (!starts.empty()) out.insert(*gen::elementOf(starts), *GenText(TextBytes::kAny));
      break;
    }
  }
  return out;
}

// What json::parse throws on `value` (a parse error, or a number out of
// range: 406), as text; nothing when it parses.
std::optional<std::string> ThrownJsonError(const std::string& value) {
  try {
    const json parsed = json::parse(value);
    return std::nullopt;
  } catch (const json::exception& error) {
    return std::string(error.what());
  }
}

// What the DOM decoder answered when it let json::parse throw: the error's
// own text, or that the value is no object; nothing for an object.
std::optional<std::string> ThrownUndecodable(const std::string& value) {
  if (std::optional<std::string> thrown = ThrownJsonError(value)) return "state value does not decode: " + *thrown;
  if (json::parse(value).is_object()) return std::nullopt;
  return "state value does not decode: the value is not a JSON object";
}

// Checks JsonParseError (the SAX parse that replaced the throw) against
// json::parse's throw, and the DOM decoder's answer to a value that is no
// JSON object against what it answered with the throw, word for word.
void CheckUndecodableAsThrown(const std::string& value) {
  RC_ASSERT(internal::JsonParseError(value) == ThrownJsonError(value));
  const std::optional<std::string> thrown = ThrownUndecodable(value);
  if (!thrown) return;
  const Result<DecodedState> dom = internal::DecodeStateValueDom(value);
  RC_ASSERT(!dom.ok());
  RC_ASSERT(dom.status().code() == StatusCode::kInvalidRecovery);
  RC_ASSERT(dom.status().message() == *thrown);
}

// Strategy: hand-picked values that are not JSON objects (a tombstone's
// empty value, garbage, a truncated value, trailing bytes, a bare number,
// bad UTF-8 in a string, a number out of range) and two that parse.
// Invariant: the SAX parse finds json::parse's error, and the decoder's
// message is the one json::parse's throw gave.
TEST(StateValueCodec, ParseErrorsReadAsTheThrownOnes) {
  const std::string valid = ValidValueJson().dump();
  for (const std::string& value :
       {std::string(), std::string("garbage{"), std::string("\x01garbage{"), valid.substr(0, 40), valid + "x",
        valid + " {}", std::string("1"), std::string("-0.5e3"), std::string("[1,2"), std::string("\"a\xff\""),
        std::string("{\"k\":}"), std::string(" "), std::string("nul"), std::string("1e999")}) {
    ASSERT_TRUE(ThrownUndecodable(value).has_value()) << value;
    EXPECT_EQ(internal::JsonParseError(value), ThrownJsonError(value)) << value;
    const Result<DecodedState> dom = internal::DecodeStateValueDom(value);
    ASSERT_FALSE(dom.ok()) << value;
    EXPECT_EQ(dom.status().code(), StatusCode::kInvalidRecovery) << value;
    EXPECT_EQ(dom.status().message(), *ThrownUndecodable(value)) << value;
  }
  for (const std::string& value : {valid, std::string("[1, {\"a\": null}] ")}) {
    EXPECT_EQ(internal::JsonParseError(value), std::nullopt) << value;
  }
}

// The same on byte strings of any bytes, and of JSON's own alphabet (which
// more often nearly parse).
RC_GTEST_PROP(StateValueCodec, ParseErrorsOfByteStringsReadAsTheThrownOnes, ()) {
  CheckUndecodableAsThrown(*gen::container<std::string>(gen::arbitrary<char>()));
  const std::string json_bytes = "{}[]\":,0123456789.-eE tfnrulas\\";
  CheckUndecodableAsThrown(*gen::container<std::string>(gen::elementOf(json_bytes)));
}

// Strategy: on encoded values changed a few times, the public decoder's
// verdict and message are the DOM decoder's, and whatever the strict
// reader accepts the DOM decoder reads to the same state.
RC_GTEST_PROP(StateValueCodec, DecodersAgreeOnMutatedValues, ()) {
  std::string value = EncodeStateValue(*GenStateKey(), *GenState(*gen::element(TextBytes::kAscii, TextBytes::kUtf8)));
  const int mutations = *gen::inRange(1, 5);
  for (int i = 0; i < mutations && json::accept(value); ++i) {  // the field swap needs a JSON value
    value = Mutate(value);
    CheckDecodersAgree(value);
    CheckUndecodableAsThrown(value);
  }
}

// Strategy: hand-picked values near the canonical form: each decodes as
// the DOM decoder decodes it, and the strict reader takes only the
// canonical ones.
TEST(StateValueCodec, StrictReaderTakesOnlyTheCanonicalForm) {
  const std::string canonical = EncodeStateValue(StateKey{"k", 3, kEvent, kAction}, FullState());
  const std::string tail = ",\"seq\":3,\"v\":1}";
  ASSERT_TRUE(canonical.ends_with(tail)) << canonical;
  EXPECT_TRUE(internal::ReadCanonicalStateValue(canonical).has_value()) << canonical;
  ActionState plain;
  plain.call_results.push_back(CallResult{"llm", 0xabc, CallStatus::kSucceeded, -7, "a \"b\"\n\x01"});
  plain.memory_updates.push_back(MemoryUpdate{"slot", -7});
  const std::string ascii = EncodeStateValue(StateKey{"k", 3, kEvent, kAction}, plain);
  ASSERT_TRUE(internal::ReadCanonicalStateValue(ascii).has_value()) << ascii;
  const std::string ascii_head = ascii.substr(0, ascii.size() - tail.size());
  const std::vector<std::string> off_canonical = {
      ascii_head + ",\"seq\":-0,\"v\":1}", ascii_head + ",\"seq\":03,\"v\":1}", ascii_head + ",\"seq\":3.0,\"v\":1}",
      ascii_head + ",\"seq\":3e0,\"v\":1}", ascii_head + ",\"seq\":9223372036854775808,\"v\":1}",
      ascii_head + ",\"seq\":3,\"v\":1} ", ascii_head + ",\"seq\":3,\"v\":1}x", ascii_head + ", \"seq\":3,\"v\":1}",
      ascii_head + ",\"seq\":3,\"v\":2}", ascii_head + ",\"seq\":3,\"v\":1,\"w\":0}", ascii_head + ",\"seq\":3}",
      ascii.substr(0, ascii.size() - 1), " " + ascii, ""};
  for (const std::string& value : off_canonical) {
    EXPECT_FALSE(internal::ReadCanonicalStateValue(value).has_value()) << value;
    EXPECT_EQ(DecodeOutcome(DecodeStateValue(value)), DecodeOutcome(internal::DecodeStateValueDom(value))) << value;
  }
  // Escapes a writer never writes but the strict reader may take: they read
  // as the DOM reads them.
  std::string escaped = ascii;
  escaped.replace(escaped.find("\"llm\""), 5, "\"\\u006Clm\\/\"");
  const std::optional<DecodedState> fast = internal::ReadCanonicalStateValue(escaped);
  ASSERT_TRUE(fast.has_value()) << escaped;
  EXPECT_EQ(fast->state.call_results[0].function_id, "llm/");
  EXPECT_EQ(DecodeOutcome(*fast), DecodeOutcome(internal::DecodeStateValueDom(escaped)));
}

}  // namespace
}  // namespace durasim

// --- The fast record-key and hex codec against the slow one (rapidcheck) --

namespace durasim {
namespace {

namespace internal = state_codec_internal;
namespace gen = rc::gen;

// The hex functions as they were before the table-driven ones: the oracle
// the fast ones must agree with on every input.
bool ReferenceParseHex64(std::string_view text, uint64_t& out) {
  if (text.size() != 16) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && ptr == text.data() + text.size();
}

void ReferenceAppendHex64(std::string& out, uint64_t value) {
  constexpr char kDigits[] = "0123456789abcdef";
  char digits[16];
  for (int i = 15; i >= 0; --i, value >>= 4) digits[i] = kDigits[value & 0xf];
  out.append(digits, sizeof digits);
}

void ReferenceAppendHexBytes(std::string& out, std::string_view bytes) {
  constexpr char kDigits[] = "0123456789abcdef";
  for (const char byte : bytes) {
    const auto c = static_cast<unsigned char>(byte);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
}

std::optional<std::string> ReferenceParseHexBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
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

// A parse result as text: the state key's fields, or the code and message.
std::string KeyOutcome(const Result<StateKey>& parsed) {
  if (!parsed.ok()) return "error " + parsed.status().ToString();
  return "key " + std::to_string(parsed->key.size()) + ":" + parsed->key + " seq " + std::to_string(parsed->seq) +
         " event " + std::to_string(parsed->event_hash) + " action " + std::to_string(parsed->action_hash);
}

// Checks the record-key parsers on `record_key`: the public parser's
// outcome, message included, is the slow parser's, and whatever the fast
// parser takes the slow one takes, to the same state key.
void CheckRecordKeyParsersAgree(const std::string& record_key) {
  const Result<StateKey> slow = internal::ParseRecordKeySlow(record_key);
  const std::optional<StateKey> fast = internal::ParseRecordKeyFast(record_key);
  if (fast) {
    RC_ASSERT(slow.ok());
    RC_ASSERT(*fast == *slow);
  }
  RC_ASSERT(KeyOutcome(ParseRecordKey(record_key)) == KeyOutcome(slow));
}

// Input keys: short texts of bytes that matter to the split ('_', digits,
// hex letters of both cases) and any byte.
rc::Gen<std::string> GenInputKey() {
  static const std::vector<std::string> kPieces = {"_", "0", "1", "9", "a", "f", "A", "F", "g", "-", "+", "k",
                                                   "_0_", "_00_", "0000000000000001", "\xff", std::string(1, '\0')};
  const auto piece = gen::weightedOneOf<std::string>(
      {{6, gen::elementOf(kPieces)},
       {1, gen::map(gen::arbitrary<unsigned char>(), [](unsigned char c) { return std::string(1, char(c)); })}});
  return gen::map(gen::container<std::vector<std::string>>(piece), [](const std::vector<std::string>& pieces) {
    std::string key;
    for (const std::string& p : pieces) key += p;
    return key;
  });
}

rc::Gen<StateKey> GenRecordStateKey() {
  const auto seq = gen::weightedOneOf<int64_t>(
      {{3, gen::inRange<int64_t>(0, std::numeric_limits<int64_t>::max())},
       {2, gen::inRange<int64_t>(0, 1000)},
       {1, gen::element<int64_t>(0, 1, 9, 10, std::numeric_limits<int64_t>::max(), -1,
                                 std::numeric_limits<int64_t>::min())}});
  const auto hash = gen::weightedOneOf<uint64_t>(
      {{3, gen::arbitrary<uint64_t>()},
       {1, gen::element<uint64_t>(0, 0xa, 0xabcdef, std::numeric_limits<uint64_t>::max())}});
  return gen::build<StateKey>(gen::set(&StateKey::key, GenInputKey()), gen::set(&StateKey::seq, seq),
                              gen::set(&StateKey::event_hash, hash), gen::set(&StateKey::action_hash, hash));
}

// Spellings near a record key: numbers the encoder never writes, or that
// leave int64; signs; separators; hex of the wrong case or width.
const std::vector<std::string> kKeyInserts = {
    "0", "00", "1", "9", "+", "-", "_", "__", "a", "f", "A", "F", "g", "x", "0x", " ", ".", "\xff",
    std::string(1, '\0'), "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "99999999999999999999", "0000000000000000", "FFFFFFFFFFFFFFFF", "_cleanup"};

// Seq spellings at the edges of the canonical form and of int64.
const std::vector<std::string> kSeqSpellings = {
    "0", "00", "01", "-0", "+0", "+1", "-1", "9223372036854775807", "9223372036854775808", "9999999999999999999",
    "09223372036854775807", "10000000000000000000", "18446744073709551616", "1000000000000000000", ""};

// `record_key` changed once.
std::string MutateRecordKey(const std::string& record_key) {
  const size_t size = record_key.size();
  const size_t at = *gen::inRange<size_t>(0, size + 1);
  std::vector<size_t> separators;
  for (size_t i = 0; i < size; ++i) {
    if (record_key[i] == '_') separators.push_back(i);
  }
  std::string out = record_key;
  const int kind = *gen::inRange(0, 14);
  switch (std::min(kind, 10)) {  // the seq replaced 4 times in 14: the fast path's own edge
    case 0:
    case 1:
    case 2:
    case 3: ChangeBytes(out, at, kind, kKeyInserts); break;
    case 4: {  // one hex letter uppercased
      std::vector<size_t> letters;
      for (size_t i = 0; i < size; ++i) {
        if (record_key[i] >= 'a' && record_key[i] <= 'f') letters.push_back(i);
      }
      if (!letters.empty()) {
        const size_t i = *gen::elementOf(letters);
        out[i] = static_cast<char>(out[i] - 'a' + 'A');
      }
      break;
    }
    case 5: {  // right after a separator: a leading zero, a sign, a separator, any piece
      if (separators.empty()) break;
      out.insert(*gen::elementOf(separators) + 1,
                 *gen::elementOf(std::vector<std::string>{"0", "00", "+", "-", "_", " ", "0x"}));
      break;
    }
    case 6: {  // a field dropped: from one separator up to the next, or to the end
      if (separators.empty()) break;
      const size_t i = *gen::inRange<size_t>(0, separators.size());
      const size_t end = i + 1 < separators.size() ? separators[i + 1] : size;
      out.erase(separators[i], end - separators[i]);
      break;
    }
    case 7: {  // the field after a separator replaced
      if (separators.empty()) break;
      const size_t i = *gen::inRange<size_t>(0, separators.size());
      const size_t end = i + 1 < separators.size() ? separators[i + 1] : size;
      out.replace(separators[i] + 1, end - separators[i] - 1, *gen::elementOf(kKeyInserts));
      break;
    }
    case 8: out.resize(at); break;
    case 9: out += *gen::elementOf(kKeyInserts); break;
    case 10: {  // the seq field, where the split finds it, replaced by a number at int64's edge
      if (separators.size() < 3) break;
      const size_t seq_at = separators[separators.size() - 3] + 1;
      out.replace(seq_at, separators[separators.size() - 2] - seq_at, *gen::elementOf(kSeqSpellings));
      break;
    }
  }
  return out;
}

// Strategy: on encoded record keys (input keys of any bytes, '_' and digits
// and hex letters included), the fast parser takes every one with a seq
// >= 0 (so the fast path is the common path), and the public parser's
// outcome is the slow parser's.
RC_GTEST_PROP(RecordKeyCodec, FastParserTakesEveryEncodedKey, ()) {
  const StateKey key = *GenRecordStateKey();
  const std::string record_key = EncodeRecordKey(key);
  const std::optional<StateKey> fast = internal::ParseRecordKeyFast(record_key);
  RC_ASSERT(fast.has_value() == (key.seq >= 0));
  if (fast) RC_ASSERT(*fast == key);
  CheckRecordKeyParsersAgree(record_key);
}

// Strategy: on encoded record keys changed a few times (uppercase hex,
// leading zeros, signs, missing or extra fields and separators, overlong
// numbers, non-digits, truncation), the public parser's verdict and message
// are the slow parser's, and the fast parser takes nothing the slow one
// would not read to the same state key.
RC_GTEST_PROP(RecordKeyCodec, ParsersAgreeOnMutatedKeys, ()) {
  std::string record_key = EncodeRecordKey(*GenRecordStateKey());
  const int mutations = *gen::inRange(1, 4);
  for (int i = 0; i < mutations; ++i) {
    record_key = MutateRecordKey(record_key);
    CheckRecordKeyParsersAgree(record_key);
  }
}

// Strategy: IsRecordKeyOf is EncodeRecordKey's equality: true for a key's
// own encoding, and for that encoding changed a few times or for another
// key's, exactly when the texts are equal.
RC_GTEST_PROP(RecordKeyCodec, IsRecordKeyOfIsEqualityWithTheEncoding, ()) {
  const StateKey key = *GenRecordStateKey();
  const std::string record_key = EncodeRecordKey(key);
  RC_ASSERT(IsRecordKeyOf(record_key, key));
  std::string changed = record_key;
  const int mutations = *gen::inRange(1, 4);
  for (int i = 0; i < mutations; ++i) changed = MutateRecordKey(changed);
  RC_ASSERT(IsRecordKeyOf(changed, key) == (changed == record_key));
  const StateKey other = *GenRecordStateKey();
  RC_ASSERT(IsRecordKeyOf(record_key, other) == (EncodeRecordKey(other) == record_key));
}

// Strategy: hand-picked keys at the fast path's edges: the shortest key,
// int64's maximum seq and one past it, 19 and 20 digits, a leading zero,
// hashes in uppercase and of the wrong width.
TEST(RecordKeyCodec, FastParserEdges) {
  const std::string h1 = "0000000000000001";
  const std::string h2 = "00000000000000ff";
  const std::vector<std::pair<std::string, bool>> cases = {
      {"_0_" + h1 + "_" + h2, true},
      {"k_9223372036854775807_" + h1 + "_" + h2, true},
      {"k_1000000000000000000_" + h1 + "_" + h2, true},
      {"k_9223372036854775808_" + h1 + "_" + h2, false},
      {"k_10000000000000000000_" + h1 + "_" + h2, false},
      {"k_09_" + h1 + "_" + h2, false},
      {"k_00_" + h1 + "_" + h2, false},
      {"0_" + h1 + "_" + h2, false},
      {"k__" + h1 + "_" + h2, false},
      {"k_1_" + h1 + "_00000000000000FF", false},
      {"k_1_" + h1 + "_" + h2 + "0", false},
      {"k_1_" + h1 + "0_" + h2, false},
      {"a_b_1_" + h1 + "_" + h2, true},
      {"_1_1_" + h1 + "_" + h2, true},
  };
  for (const auto& [record_key, fast_takes] : cases) {
    EXPECT_EQ(internal::ParseRecordKeyFast(record_key).has_value(), fast_takes) << record_key;
    EXPECT_EQ(KeyOutcome(ParseRecordKey(record_key)), KeyOutcome(internal::ParseRecordKeySlow(record_key)))
        << record_key;
  }
}

// Texts near 16 hex digits: digits of both cases, bytes just outside the
// digit ranges, signs, a "0x" prefix; lengths around 16.
rc::Gen<std::string> GenHexText() {
  static const std::string kNear = "0123456789abcdefABCDEF/:@G`gxX+- _\x7f";
  const auto byte = gen::weightedOneOf<char>(
      {{8, gen::elementOf(std::string("0123456789abcdefABCDEF"))},
       {2, gen::elementOf(kNear)},
       {1, gen::map(gen::arbitrary<unsigned char>(), [](unsigned char c) { return char(c); })}});
  const auto size = gen::weightedOneOf<size_t>({{6, gen::just<size_t>(16)}, {1, gen::inRange<size_t>(0, 21)}});
  return gen::mapcat(size, [byte](size_t n) { return gen::container<std::string>(n, byte); });
}

// Strategy: ParseHex64 agrees with std::from_chars over exactly 16 digits
// (the implementation before the table) on texts near 16 hex digits, and
// reads back what AppendHex64 wrote; AppendHex64 appends the reference
// digits after any prefix.
RC_GTEST_PROP(HexCodec, Hex64AgreesWithTheReference, ()) {
  const std::string text = *GenHexText();
  uint64_t fast = 0x5a5a;
  uint64_t reference = 0x5a5a;
  const bool fast_ok = internal::ParseHex64(text, fast);
  RC_ASSERT(fast_ok == ReferenceParseHex64(text, reference));
  if (fast_ok) RC_ASSERT(fast == reference);

  const uint64_t value = *gen::weightedOneOf<uint64_t>(
      {{3, gen::arbitrary<uint64_t>()}, {1, gen::element<uint64_t>(0, 1, 0xf, 0x10, ~0ULL, 0x8000000000000000ULL)}});
  const std::string prefix = *gen::container<std::string>(gen::arbitrary<char>());
  std::string written = prefix;
  std::string expected = prefix;
  internal::AppendHex64(written, value);
  ReferenceAppendHex64(expected, value);
  RC_ASSERT(written == expected);
  uint64_t read = 0;
  RC_ASSERT(internal::ParseHex64(std::string_view(written).substr(prefix.size()), read));
  RC_ASSERT(read == value);
}

// Strategy: AppendHexBytes appends the reference digits for any bytes after
// any prefix; ParseHexBytes agrees with the reference on what it wrote, on
// near-hex texts of any length (odd, uppercase, bytes outside the ranges),
// and on what it wrote changed once.
RC_GTEST_PROP(HexCodec, HexBytesAgreeWithTheReference, ()) {
  const std::string bytes = *gen::container<std::string>(gen::arbitrary<char>());
  const std::string prefix = *gen::container<std::string>(gen::arbitrary<char>());
  std::string written = prefix;
  std::string expected = prefix;
  internal::AppendHexBytes(written, bytes);
  ReferenceAppendHexBytes(expected, bytes);
  RC_ASSERT(written == expected);
  const std::string hex = written.substr(prefix.size());
  RC_ASSERT(internal::ParseHexBytes(hex) == std::optional<std::string>(bytes));

  std::string changed = hex;
  const size_t at = *gen::inRange<size_t>(0, changed.size() + 1);
  if (at < changed.size() && *gen::arbitrary<bool>()) {
    changed[at] = *gen::elementOf(std::string("0aAfFgG/:`@\xff"));
  } else {
    changed.insert(at, 1, *gen::elementOf(std::string("0aF")));
  }
  RC_ASSERT(internal::ParseHexBytes(changed) == ReferenceParseHexBytes(changed));
  const std::string near = *GenHexText();
  RC_ASSERT(internal::ParseHexBytes(near) == ReferenceParseHexBytes(near));
}

}  // namespace
}  // namespace durasim
