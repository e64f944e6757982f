// TraceBytes: the growable byte buffer a trace writes its events' kinds and
// arguments into (model/trace.h). An event appends a handful of 8-byte words
// and short strings (a kind, a key); through std::string each append was a
// call that checked the capacity and then called memcpy through the PLT.
// Here a word is one store and a string of up to 16 bytes a few
// (store/copy_short.h), inline; only growing is a call. A moved-from buffer
// is empty and usable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "store/copy_short.h"

namespace durasim {

class TraceBytes {
 public:
  TraceBytes() = default;
  TraceBytes(const TraceBytes& other) { *this = other; }
  TraceBytes& operator=(const TraceBytes& other);
  TraceBytes(TraceBytes&& other) noexcept { *this = std::move(other); }
  TraceBytes& operator=(TraceBytes&& other) noexcept;

  void Reserve(size_t capacity) {
    if (capacity > capacity_) Reallocate(capacity);
  }

  void AppendWord(uint64_t word) {
    if (capacity_ - size_ < sizeof word) Grow(sizeof word);
    std::memcpy(data_.get() + size_, &word, sizeof word);
    size_ += sizeof word;
  }

  // REQUIRES: `text` does not point into this buffer (growing frees it).
  void Append(std::string_view text) {
    const size_t n = text.size();
    if (capacity_ - size_ < n) Grow(n);
    CopyShort(data_.get() + size_, text.data(), n);
    size_ += n;
  }

  size_t size() const { return size_; }
  std::string_view view() const { return std::string_view(data_.get(), size_); }

 private:
  // Makes room for `more` bytes past size(): at least doubles.
  void Grow(size_t more);
  void Reallocate(size_t capacity);

  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace durasim
