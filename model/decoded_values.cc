// DecodedValues implementation.
#include "model/decoded_values.h"

namespace durasim {

const Result<DecodedState>& DecodedValues::Decode(const std::string& value) {
  for (const std::optional<Entry>& entry : entries_) {
    if (entry.has_value() && entry->value == value) {
      ++hits_;
      return entry->decoded;
    }
  }
  std::optional<Entry>& slot = entries_[next_];
  next_ = (next_ + 1) % kRemembered;
  slot.emplace(Entry{value, DecodeStateValue(value)});
  return slot->decoded;
}

}  // namespace durasim
