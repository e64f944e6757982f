// The state codec's two implementations of the value format, for the codec
// itself and its tests: the reference one over an nlohmann::json DOM, and
// the fast one, a streaming writer and a strict reader of the canonical
// form. Other callers use store/state_codec.h, which this header does not
// include (the types both need are in store/state_value.h).
//
// The fast path never changes a result: the writer writes the bytes the
// DOM's dump() writes, and the reader accepts only the canonical form of a
// valid state (the writer's output), on which the DOM decoder returns the
// same state. Everything else goes to the DOM path, which keeps its verdicts
// and error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/action_state.h"
#include "store/state_value.h"
#include "store/status.h"

namespace durasim::state_codec_internal {

// 16 lowercase hex digits, appended, or written at `out` (returns the end).
void AppendHex64(std::string& out, uint64_t value);
char* WriteHex64(char* out, uint64_t value);
// Exactly 16 hex digits (either case).
bool ParseHex64(std::string_view text, uint64_t& out);
// Two lowercase hex digits per byte, and back (lowercase only).
void AppendHexBytes(std::string& out, std::string_view bytes);
std::optional<std::string> ParseHexBytes(std::string_view hex);
// The record-key parser's two paths. The fast one takes the canonical form
// only (seq "0" or 1-9 then digits within int64, hashes 16 lowercase hex
// digits) and gives nothing for anything else; the slow one splits from the
// right, parses each field and requires the key to re-encode to itself: it
// decides every key the fast one does not take, with its messages.
std::optional<StateKey> ParseRecordKeyFast(std::string_view record_key);
Result<StateKey> ParseRecordKeySlow(const std::string& record_key);
// The status CallStatusName spells `text`, or nothing.
std::optional<CallStatus> ParseCallStatus(std::string_view text);

// The reference encoder: nlohmann::json's dump() of the value. Throws
// nlohmann's type_error 316 when a string is not UTF-8.
std::string EncodeStateValueDom(const StateKey& state_key, const ActionState& state);
// The reference decoder: parse into a DOM, then walk it.
Result<DecodedState> DecodeStateValueDom(const std::string& value);
// The error json::parse would throw on `value` (its what(): a parse error,
// or a number out of range), found without a throw; nothing when it parses.
std::optional<std::string> JsonParseError(const std::string& value);

// The streaming writer: EncodeStateValueDom's bytes, or nothing where that
// throws (a string that is not UTF-8).
std::optional<std::string> WriteStateValue(const StateKey& state_key, const ActionState& state);
// The strict reader: the state of a value in canonical form, or nothing for
// anything else (then the DOM decoder decides).
std::optional<DecodedState> ReadCanonicalStateValue(std::string_view value);

}  // namespace durasim::state_codec_internal
