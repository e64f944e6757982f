// DecodedValues implementation.
#include "model/decoded_values.h"

namespace durasim {

template <typename T>
template <typename Parse>
const T& DecodedValues::Memo<T>::Of(const std::string& bytes, Parse parse) {
  // Newest first: a repeat is most often of the decode just before it (the
  // fault plan's, then the checkers' for the same put).
  for (size_t back = 1; back <= kRemembered; ++back) {
    const std::optional<Entry>& entry = entries[(next + kRemembered - back) % kRemembered];
    if (entry.has_value() && entry->bytes == bytes) {
      ++hits;
      return entry->result;
    }
  }
  std::optional<Entry>& slot = entries[next];
  next = (next + 1) % kRemembered;
  if (!slot.has_value()) {
    slot.emplace(Entry{bytes, parse(bytes)});
    return slot->result;
  }
  // Reuses the entry's buffer: no allocation once it has held a long value.
  slot->result = parse(bytes);
  slot->bytes.assign(bytes);  // after the parse: a parse that threw leaves no entry claiming these bytes
  return slot->result;
}

const Result<DecodedState>& DecodedValues::Decode(const std::string& value) {
  return values_.Of(value, [](const std::string& bytes) { return DecodeStateValue(bytes); });
}

const Result<StateKey>& DecodedValues::Key(const std::string& record_key) {
  return keys_.Of(record_key, [](const std::string& bytes) { return ParseRecordKey(bytes); });
}

}  // namespace durasim
