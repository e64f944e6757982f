// The record kind table.
#include "model/record_kind.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(RecordKind kind) {
  switch (kind) {
    case RecordKind::kStart: return EnumInfo{"start", "a state with no call results yet: the action started"};
    case RecordKind::kPending: return EnumInfo{"pending", "a state whose last call result is PENDING"};
    case RecordKind::kResult: return EnumInfo{"result", "a state whose last call result is SUCCEEDED or FAILED"};
    case RecordKind::kComplete: return EnumInfo{"complete", "a completed state: its outputs, memory and emits"};
    case RecordKind::kTombstone: return EnumInfo{"tombstone", "an empty value under a state key: the state was pruned"};
    case RecordKind::kCleanup: return EnumInfo{"cleanup", "a committed cleanup boundary (<key>_cleanup)"};
    case RecordKind::kCorrupt: return EnumInfo{"corrupt", "a state key whose value does not decode"};
    case RecordKind::kForeign: return EnumInfo{"foreign", "a key the store never writes"};
  }
  return std::nullopt;
}

}  // namespace durasim
