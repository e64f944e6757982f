// RebuildAcceptsInvalidStore implementation.
#include "properties/mutants/rebuild_accepts_invalid.h"

#include <algorithm>

#include "store/state_codec.h"

namespace durasim {

Status RebuildAcceptsInvalidStore::Rebuild(const RecoveryMarker& marker) {
  cache_.clear();
  record_keys_by_input_.clear();
  records_scanned_ = 0;
  Result<std::vector<PartitionOffsets>> offsets = client_.Offsets();
  if (!offsets.ok()) return offsets.status();
  for (const auto& [partition, marked] : marker.offsets) {
    if (partition < 0 || partition >= static_cast<int32_t>(offsets->size())) continue;  // the bug
    const PartitionOffsets range = (*offsets)[static_cast<size_t>(partition)];
    const int64_t from = std::clamp(marked, range.start, range.end);                    // the bug
    Result<std::vector<LogRecord>> records = client_.Read(partition, from, range.end);
    if (!records.ok()) return records.status();
    for (LogRecord& record : *records) {
      ++records_scanned_;
      Result<StateKey> parsed_key = ParseRecordKey(record.key);
      if (parsed_key.ok() && record.value.empty()) {  // a tombstone
        Forget(record.key, parsed_key->key);
        continue;
      }
      Result<DecodedState> decoded = DecodeStateValue(record.value);
      if (!parsed_key.ok() || !decoded.ok() || decoded->state_key != *parsed_key) continue;  // the bug
      Remember(record.key, CachedState{*parsed_key, std::move(decoded->state),
                                       RecordPosition{record.partition, record.offset}});
    }
  }
  return Status::Ok();
}

}  // namespace durasim
