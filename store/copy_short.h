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

// memcpy of `n` bytes, inline: the first and the last Word of them, which
// overlap when n < 2 * sizeof(Word).
// REQUIRES: sizeof(Word) <= n <= 2 * sizeof(Word); [out, out + n) and [in, in + n) do not overlap.
template <typename Word>
inline void CopyHeadAndTail(char* out, const char* in, size_t n) {
  Word head;
  Word tail;
  std::memcpy(&head, in, sizeof(Word));
  std::memcpy(&tail, in + n - sizeof(Word), sizeof(Word));
  std::memcpy(out, &head, sizeof(Word));
  std::memcpy(out + n - sizeof(Word), &tail, sizeof(Word));
}

// memcpy of `n` < 8 bytes, inline. A byte loop would do, but GCC turns one
// between buffers that cannot overlap back into a memcpy call.
// REQUIRES: n < 8; [out, out + n) and [in, in + n) do not overlap.
inline void CopyUnder8(char* out, const char* in, size_t n) {
  if (n >= 4) {
    CopyHeadAndTail<uint32_t>(out, in, n);
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
    CopyHeadAndTail<uint64_t>(out, in, n);
  } else {
    std::memcpy(out, in, n);
  }
}

}  // namespace durasim
