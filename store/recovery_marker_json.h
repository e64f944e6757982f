// The recovery marker's JSON form: what `durasim run --keep-topic` prints
// for each checkpoint and `durasim inspect --marker` reads, so that an
// engineer can ask "what would a restore from this checkpoint read" of a
// real topic. The fields are the marker's own (recovery_marker.h):
//
//   {"version": 2, "topic": "orders-state", "incarnation": "group-offset-17",
//    "offsets": {"0": 3, "1": 0}, "completed": {"a": 1}}
//
// `completed` (key -> last finished sequence number) is optional: a Kafka
// store writes it into every marker (tombstones or not: the log may hold an
// earlier job's), a version-1 or fluss marker has none, and an inspector
// given them says which inputs a restore would treat as finished.
#pragma once

#include <string>

#include "store/recovery_marker.h"
#include "store/status.h"

namespace durasim {

std::string MarkerToJson(const RecoveryMarker& marker);

// Errors: kInvalidArgument naming what is wrong (not JSON, a missing or
// mistyped field, a partition that is no number >= 0, an offset < 0).
Result<RecoveryMarker> MarkerFromJson(const std::string& text);

}  // namespace durasim
