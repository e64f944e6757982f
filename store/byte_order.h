// ByteOrder: the order std::string's compare gives (bytes as unsigned char,
// then the shorter first), computed eight bytes at a time as big-endian
// words instead of through a call to memcmp. The harness's hottest ordered
// maps are keyed by record keys and input keys of a few dozen bytes, many
// sharing a prefix; there the call to memcmp cost more than the compare.
// The order is exactly std::string's, so a map's iteration order, and with
// it every trace, is unchanged (byte_order_test.cc checks it against
// std::string's on random and adversarial strings).
#pragma once

#include <algorithm>
#include <bit>
#include <compare>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace durasim {

inline std::strong_ordering CompareBytes(std::string_view a, std::string_view b) {
  static_assert(std::endian::native == std::endian::little, "words are read little-endian and byte-swapped");
  const size_t common = std::min(a.size(), b.size());
  size_t at = 0;
  for (; at + 8 <= common; at += 8) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, a.data() + at, sizeof x);
    std::memcpy(&y, b.data() + at, sizeof y);
    if (x != y) return __builtin_bswap64(x) <=> __builtin_bswap64(y);
  }
  for (; at < common; ++at) {
    const auto x = static_cast<unsigned char>(a[at]);
    const auto y = static_cast<unsigned char>(b[at]);
    if (x != y) return x <=> y;
  }
  return a.size() <=> b.size();
}

// A transparent less-than in that order, for ordered maps and sets of strings.
struct ByteOrder {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return CompareBytes(a, b) < 0; }
};

}  // namespace durasim
