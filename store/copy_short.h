// CopyShort: memcpy of `n` bytes, inline for the short copies of writers
// that append a field at a time (model/trace_bytes.h, the state value's
// writer). Up to 16 bytes are two loads and two stores of one width, which
// may overlap; longer copies call memcpy. A std::string::append of 8 bytes
// is about 40 instructions: a call, a capacity check, then memcpy through
// the PLT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace durasim {

// memcpy of `n` < 8 bytes, inline.
inline void CopyUnder8(char* out, const char* in, size_t n) {
  if (n >= 4) {
    uint32_t head;
    uint32_t tail;
    std::memcpy(&head, in, 4);
    std::memcpy(&tail, in + n - 4, 4);
    std::memcpy(out, &head, 4);
    std::memcpy(out + n - 4, &tail, 4);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = in[i];
  }
}

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
