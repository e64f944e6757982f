// DecodedValues: the harness decodes each state value it sees once. A put's
// value is decoded when the store produces it (which put of an action it
// is, for the fault plan: model/faulty_log_client.h) and was decoded again
// when the log appended it (for the checkers: Attempt::OnAppended); this
// remembers the last few decodes by their exact bytes, so the second is a
// lookup. DecodeStateValue is a function of the bytes alone, so a hit is
// exactly what a decode would give.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "store/state_codec.h"

namespace durasim {

class DecodedValues {
 public:
  // The decode of `value`; the reference is valid until the next call.
  const Result<DecodedState>& Decode(const std::string& value);

  int64_t hits() const { return hits_; }

 private:
  // Puts in flight at once are few (a subtask's buffered produces until the
  // flush, one per subtask); eight covers them.
  static constexpr size_t kRemembered = 8;
  struct Entry {
    std::string value;
    Result<DecodedState> decoded;
  };
  std::array<std::optional<Entry>, kRemembered> entries_;
  size_t next_ = 0;  // the entry to overwrite next
  int64_t hits_ = 0;
};

}  // namespace durasim
