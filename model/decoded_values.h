// DecodedValues: the harness decodes each state value and parses each
// record key it sees once. A put's value is decoded when the store produces
// it (which put of an action it is, for the fault plan: model/
// faulty_log_client.h) and was decoded again when the log appended it (for
// the checkers: Attempt::OnAppended); its record key was parsed at both and
// again for the writer's subtask. This remembers the last few decodes and
// parses by their exact bytes, so the repeats are lookups. DecodeStateValue
// and ParseRecordKey are functions of the bytes alone, so a hit is exactly
// what a decode or a parse would give. The store's own decodes (a rebuild)
// do not come here: they are the code under test.
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
  // ParseRecordKey(`record_key`); the reference is valid until the next call.
  const Result<StateKey>& Key(const std::string& record_key);

  int64_t hits() const { return values_.hits + keys_.hits; }

 private:
  // Puts in flight at once are few (a subtask's buffered produces until the
  // flush, one per subtask); eight covers them.
  static constexpr size_t kRemembered = 8;
  // The last kRemembered results of `parse`, by their input's bytes.
  template <typename T>
  struct Memo {
    struct Entry {
      std::string bytes;
      T result;
    };
    template <typename Parse>
    const T& Of(const std::string& bytes, Parse parse);

    std::array<std::optional<Entry>, kRemembered> entries;
    size_t next = 0;  // the entry to overwrite next
    int64_t hits = 0;
  };
  Memo<Result<DecodedState>> values_;
  Memo<Result<StateKey>> keys_;
};

}  // namespace durasim
