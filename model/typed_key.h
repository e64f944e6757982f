// Typed keys: an input key is a Java object in the real job, and Flink tells
// keys apart by their serialized bytes, not by their text. Long(1) and
// String("1") are two keys (apache/flink-agents #1099: the store named a
// state by key.toString(), so they shared their states; PR #1100 names it by
// a digest of the key's serialized bytes). A key in durasim is a byte string
// that is its serialized identity: a String key is its UTF-8 bytes (as
// before, so every string key keeps its record keys and traces), and a Long
// key is kLongKeyMark followed by its decimal, which no String key can be
// (its lead byte 0xff is never UTF-8, and the parser refuses a key of bytes
// that starts with the mark). A scenario writes a Long key as `!long 7`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace durasim {

inline constexpr std::string_view kLongKeyMark = "\xff" "long:";

// The identity of the Long key `value`.
std::string LongKey(int64_t value);
// The value of a Long key's identity, or none for any other key.
std::optional<int64_t> LongOfKey(std::string_view key);
// Whether `bytes` start with kLongKeyMark: no String key may.
bool StartsWithLongKeyMark(std::string_view bytes);
// What the key's toString() gives: a Long key's decimal, a String key itself.
std::string KeyText(std::string_view key);
// java.lang.Long.hashCode: (int) (value ^ (value >>> 32)).
int32_t JavaLongHashCode(int64_t value);

}  // namespace durasim
