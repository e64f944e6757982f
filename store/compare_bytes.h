// CompareBytes: std::string's order (bytes as unsigned char, then the
// shorter first), inline. The maps the checkers and the runtime key by
// StateKey compare it about 870 times a generated seed, mostly on keys of a
// few bytes; std::string's compare calls memcmp through the PLT for each
// (docs/benchmarks.md, issue 31, session 31).
#pragma once

#include <compare>
#include <cstddef>
#include <string_view>

namespace durasim {

constexpr std::strong_ordering CompareBytes(std::string_view a, std::string_view b) {
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < common; ++i) {
    const auto x = static_cast<unsigned char>(a[i]);
    const auto y = static_cast<unsigned char>(b[i]);
    if (x != y) return x <=> y;
  }
  return a.size() <=> b.size();
}

}  // namespace durasim
