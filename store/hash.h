// Stable 64-bit hashing: FNV-1a over bytes plus a SplitMix64 finaliser.
// Stable across platforms and standard libraries (unlike std::hash), so it can
// reach traces, record keys and saved data.
#pragma once

#include <cstdint>
#include <string_view>

namespace durasim {

inline constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ULL;

constexpr uint64_t Fnv1a(std::string_view bytes, uint64_t state = kFnvOffsetBasis) {
  for (unsigned char byte : bytes) {
    state ^= byte;
    state *= 0x100000001b3ULL;
  }
  return state;
}

// SplitMix64's output function: a bijective mixer.
constexpr uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Combines a value into a running digest; order matters.
constexpr uint64_t HashCombine(uint64_t digest, uint64_t value) {
  return Mix64(digest ^ Mix64(value));
}

constexpr uint64_t HashString(std::string_view text) { return Mix64(Fnv1a(text)); }

}  // namespace durasim
