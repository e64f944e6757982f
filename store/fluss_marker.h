// FlussMarker: the recovery marker of the `fluss` store design, in the shape
// of Flink Agents 0.3.0's FlussActionStateStore marker (READ at
// release-0.3.0, docs/store-designs.md "fluss"): a plain map bucket -> offset that lists every bucket
// of the table (admin.listOffsets over buckets 0..n-1), with no version and
// no table id.
//
// Its encoded form here is a JSON object of bucket -> offset,
// `{"0":3,"1":0}`. 0.3.0 puts the Java Map itself into a Kryo-serialised
// union list state; those bytes are not modelled, only what they hold.
//
// The runtime carries a RecoveryMarker (store/recovery_marker.h). A Fluss
// marker maps into one as follows (decided here): the offsets are the bucket
// offsets; the topic identity is empty, because a Fluss marker names no
// table; there are no completed boundaries, because a Fluss table has no
// tombstones; the version is the type's default and is not part of a Fluss
// marker. An empty topic identity is what tells a Fluss marker from a Kafka
// store's marker, which always names its topic.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "store/recovery_marker.h"
#include "store/status.h"

namespace durasim {

struct FlussMarker {
  std::map<int32_t, int64_t> bucket_offsets;  // bucket -> offset to read from
  bool operator==(const FlussMarker&) const = default;
};

// Whether the marker lists the buckets 0..n-1 for some n >= 1, each once:
// the shape of every marker a Fluss store writes.
bool ListsEveryBucket(const FlussMarker& marker);

// REQUIRES: ListsEveryBucket(marker) and every offset >= 0.
std::string EncodeFlussMarker(const FlussMarker& marker);
// Errors: kInvalidRecovery naming what is wrong: not JSON, not an object,
// a bucket that is not a decimal number >= 0 written the canonical way, an
// offset that is not an integer >= 0, or a bucket set that is not 0..n-1
// (no bucket, or a bucket missing).
Result<FlussMarker> DecodeFlussMarker(const std::string& text);

// The RecoveryMarker the runtime carries for `marker`.
RecoveryMarker RecoveryMarkerOf(const FlussMarker& marker);
// The Fluss marker in a RecoveryMarker. kInvalidRecovery for a marker no
// Fluss store wrote: one that names a topic, or carries completed
// boundaries. The bucket set is not checked here. A rebuild compares it with
// the table's buckets.
Result<FlussMarker> FlussMarkerOf(const RecoveryMarker& marker);

}  // namespace durasim
