// Typed keys (typed_key.h).
#include "model/typed_key.h"

#include <charconv>

namespace durasim {

std::string LongKey(int64_t value) { return std::string(kLongKeyMark) + std::to_string(value); }

bool StartsWithLongKeyMark(std::string_view bytes) { return bytes.substr(0, kLongKeyMark.size()) == kLongKeyMark; }

std::optional<int64_t> LongOfKey(std::string_view key) {
  if (!StartsWithLongKeyMark(key)) return std::nullopt;
  const std::string_view digits = key.substr(kLongKeyMark.size());
  int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return value;
}

std::string KeyText(std::string_view key) {
  if (const std::optional<int64_t> value = LongOfKey(key)) return std::to_string(*value);
  return std::string(key);
}

int32_t JavaLongHashCode(int64_t value) {
  const auto bits = static_cast<uint64_t>(value);
  return static_cast<int32_t>(static_cast<uint32_t>(bits ^ (bits >> 32)));
}

}  // namespace durasim
