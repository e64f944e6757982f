// UTF-8 validation (RFC 3629).
#include "store/utf8.h"

#include <cstdint>

namespace durasim {

std::optional<size_t> FirstInvalidUtf8(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
    const uint8_t lead = byte(at);
    const size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
    if (length == 0 || at + length > text.size()) return at;
    uint32_t code = lead & (0xff >> (length + 1));
    for (size_t i = 1; i < length; ++i) {
      if ((byte(at + i) & 0xc0) != 0x80) return at;
      code = (code << 6) | (byte(at + i) & 0x3f);
    }
    constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return at;
    at += length;
  }
  return std::nullopt;
}

}  // namespace durasim
