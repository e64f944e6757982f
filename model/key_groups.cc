// Key group assignment implementation.
#include "model/key_groups.h"

#include "model/typed_key.h"

#include "store/check.h"

namespace durasim {
namespace {

uint32_t RotateLeft(uint32_t value, int bits) { return (value << bits) | (value >> (32 - bits)); }

// The next code point of `text` from `at` (advanced past it): UTF-8 as
// Java's decoder reads it, a malformed sequence giving U+FFFD for its first byte.
uint32_t NextCodePoint(std::string_view text, size_t& at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(at);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
  if (length == 1) {
    ++at;
    return lead;
  }
  if (length == 0 || at + length > text.size()) {
    ++at;
    return 0xfffd;
  }
  uint32_t code = lead & (0xff >> (length + 1));
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xc0) != 0x80) {
      ++at;
      return 0xfffd;
    }
    code = (code << 6) | (byte(at + i) & 0x3f);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
    ++at;
    return 0xfffd;
  }
  at += length;
  return code;
}

}  // namespace

int32_t JavaStringHashCode(std::string_view key) {
  uint32_t hash = 0;  // Java's int arithmetic wraps
  for (size_t at = 0; at < key.size();) {
    const uint32_t code = NextCodePoint(key, at);
    if (code < 0x10000) {
      hash = 31 * hash + code;
    } else {  // a surrogate pair of UTF-16 code units
      const uint32_t offset = code - 0x10000;
      hash = 31 * hash + (0xd800 + (offset >> 10));
      hash = 31 * hash + (0xdc00 + (offset & 0x3ff));
    }
  }
  return static_cast<int32_t>(hash);
}

int32_t FlinkMurmurHash(int32_t code_in) {
  uint32_t code = static_cast<uint32_t>(code_in);
  code *= 0xcc9e2d51u;
  code = RotateLeft(code, 15);
  code *= 0x1b873593u;
  code = RotateLeft(code, 13);
  code = code * 5 + 0xe6546b64u;
  code ^= 4;
  code ^= code >> 16;  // bitMix
  code *= 0x85ebca6bu;
  code ^= code >> 13;
  code *= 0xc2b2ae35u;
  code ^= code >> 16;
  const int32_t mixed = static_cast<int32_t>(code);
  if (mixed >= 0) return mixed;
  if (mixed != INT32_MIN) return -mixed;
  return 0;
}

int32_t KeyGroupOf(std::string_view key, int32_t max_parallelism) {
  DURASIM_CHECK(max_parallelism >= 1 && max_parallelism <= kMaxParallelismUpperBound);
  const std::optional<int64_t> long_key = LongOfKey(key);
  return FlinkMurmurHash(long_key ? JavaLongHashCode(*long_key) : JavaStringHashCode(key)) % max_parallelism;
}

int32_t SubtaskOfKeyGroup(int32_t key_group, int32_t max_parallelism, int32_t parallelism) {
  DURASIM_CHECK(parallelism >= 1 && parallelism <= max_parallelism);
  DURASIM_CHECK(key_group >= 0 && key_group < max_parallelism);
  return static_cast<int32_t>(static_cast<int64_t>(key_group) * parallelism / max_parallelism);
}

int32_t SubtaskOfKey(std::string_view key, int32_t max_parallelism, int32_t parallelism) {
  return SubtaskOfKeyGroup(KeyGroupOf(key, max_parallelism), max_parallelism, parallelism);
}

KeyGroupRange KeyGroupRangeOf(int32_t subtask, int32_t max_parallelism, int32_t parallelism) {
  DURASIM_CHECK(parallelism >= 1 && parallelism <= max_parallelism);
  DURASIM_CHECK(subtask >= 0 && subtask < parallelism);
  const int64_t m = max_parallelism;
  const int64_t p = parallelism;
  const auto start = [&](int64_t i) { return static_cast<int32_t>((i * m + p - 1) / p); };
  return KeyGroupRange{start(subtask), start(subtask + 1) - 1};
}

}  // namespace durasim
