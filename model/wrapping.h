// Integer arithmetic on scenario values, defined for every value: the
// model computes modulo 2^64 (in uint64_t, converted back to int64_t, which
// C++20 defines as two's complement). A file's values may sit anywhere in
// their 64-bit range and chained calls and memory reads grow them without
// bound, so signed overflow (undefined behaviour) must be unreachable; the
// wrap-around is the documented result (docs/scenarios.md, "Arithmetic").
#pragma once

#include <cstdint>

namespace durasim {

inline int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

inline int64_t WrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace durasim
