// TraceBytes implementation.
#include "model/trace_bytes.h"

#include <algorithm>

namespace durasim {

TraceBytes& TraceBytes::operator=(const TraceBytes& other) {
  if (this == &other) return *this;
  if (other.size_ > capacity_) {
    // Allocated first: a bad_alloc leaves this buffer as it was.
    auto data = std::make_unique_for_overwrite<char[]>(other.size_);
    data_ = std::move(data);
    capacity_ = other.size_;
  }
  if (other.size_ > 0) std::memcpy(data_.get(), other.data_.get(), other.size_);
  size_ = other.size_;
  return *this;
}

TraceBytes& TraceBytes::operator=(TraceBytes&& other) noexcept {
  data_ = std::move(other.data_);
  size_ = std::exchange(other.size_, 0);
  capacity_ = std::exchange(other.capacity_, 0);
  return *this;
}

void TraceBytes::Grow(size_t more) { Reallocate(std::max(size_ + more, std::max<size_t>(2 * capacity_, 64))); }

void TraceBytes::Reallocate(size_t capacity) {
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  if (size_ > 0) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = capacity;
}

}  // namespace durasim
