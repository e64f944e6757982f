// RecordKind: what a record of the action-state topic is, by what its key
// and value decode to. Named as `durasim run --dump-log` prints it and as
// `expect: log:` states it (docs/scenarios.md).
#pragma once

#include <optional>

#include "model/enum_table.h"

namespace durasim {

enum class RecordKind {
  kStart,      // a state with no call results yet (the action started)
  kPending,    // the last call result is PENDING (a durable call in flight)
  kResult,     // the last call result is terminal (SUCCEEDED or FAILED)
  kComplete,   // completed: results cleared, outputs kept
  kTombstone,  // an empty value under a state key: the state was pruned
  kCleanup,    // a committed cleanup boundary (`<key>_cleanup`)
  kCorrupt,    // a state key whose value does not decode
  kForeign,    // a key our store never writes
};

std::optional<EnumInfo> EnumInfoOf(RecordKind kind);

}  // namespace durasim
