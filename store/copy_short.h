// CopyShort: memcpy of `n` bytes, inline for the short copies of writers
// that append a field at a time (model/trace_bytes.h, the state value's
// writer). From 4 to 16 bytes a copy is two loads and two stores of one
// width, which may overlap; 1 to 3 bytes are three byte loads and stores;
// longer copies call memcpy. A std::string::append of 8 bytes is about 40
// instructions: a call, a capacity check, then memcpy through the PLT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace durasim {

// memcpy of `n` < 8 bytes, inline. A byte loop would do, but GCC turns one
// between buffers that cannot overlap back into a memcpy call.
// REQUIRES: n < 8; [out, out + n) and [in, in + n) do not overlap.
inline void CopyUnder8(char* out, const char* in, size_t n) {
  if (n >= 4) {
    uint32_t head;
    uint32_t tail;
    std::memcpy(&head, in, 4);
    std::memcpy(&tail, in + n - 4, 4);
    std::memcpy(out, &head, 4);
    std::memcpy(out + n - 4, &tail, 4);
  } else if (n > 0) {
    // 1, 2 or 3 bytes: the first, the middle and the last (some the same).
    const char first = in[0];
    const char middle = in[n / 2];
    const char last = in[n - 1];
    out[0] = first;
    out[n / 2] = middle;
    out[n - 1] = last;
  }
}

// REQUIRES: [out, out + n) and [in, in + n) do not overlap.
inline void CopyShort(char* out, const char* in, size_t n) {
  if (n < 8) {
    CopyUnder8(out, in, n);
  } else if (n <= 16) {
    uint64_t head;
    uint64_t tail;
    std::memcpy(&head, in, 8);
    std::memcpy(&tail, in + n - 8, 8);
    std::memcpy(out, &head, 8);
    std::memcpy(out + n - 8, &tail, 8);
  } else {
    std::memcpy(out, in, n);
  }
}

}  // namespace durasim
