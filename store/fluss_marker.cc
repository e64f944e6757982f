// The Fluss store's recovery marker (fluss_marker.h).
#include "store/fluss_marker.h"

#include <fmt/ranges.h>

#include <charconv>
#include <limits>
#include <optional>
#include <vector>
#include <nlohmann/json.hpp>

#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

Status InvalidFlussMarker(const std::string& what) {
  return Status(StatusCode::kInvalidRecovery, "Fluss recovery marker: " + what);
}

// The bucket a JSON key names, when it is a decimal number >= 0 written the
// way EncodeFlussMarker writes it (no sign, no leading zero, no space).
std::optional<int32_t> BucketOf(const std::string& name) {
  int32_t bucket = -1;
  const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), bucket);
  if (error != std::errc() || end != name.data() + name.size() || bucket < 0) return std::nullopt;
  if (std::to_string(bucket) != name) return std::nullopt;
  return bucket;
}

// The offset a JSON value holds, when it is an integer in [0, INT64_MAX].
std::optional<int64_t> OffsetOf(const nlohmann::json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned()) {
    const uint64_t offset = value.get<uint64_t>();
    if (offset > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(offset);
  }
  const int64_t offset = value.get<int64_t>();
  if (offset < 0) return std::nullopt;
  return offset;
}

}  // namespace

bool ListsEveryBucket(const FlussMarker& marker) {
  // A map's keys are distinct and sorted: 0..n-1 exactly when the first is
  // 0 and the last is n-1.
  const auto& offsets = marker.bucket_offsets;
  return !offsets.empty() && offsets.begin()->first == 0 &&
         offsets.rbegin()->first == static_cast<int32_t>(offsets.size()) - 1;
}

std::string EncodeFlussMarker(const FlussMarker& marker) {
  DURASIM_CHECK(ListsEveryBucket(marker));
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [bucket, offset] : marker.bucket_offsets) {
    DURASIM_CHECK_GE(offset, 0);  // an offset within a bucket's log
    json[std::to_string(bucket)] = offset;
  }
  return json.dump();
}

Result<FlussMarker> DecodeFlussMarker(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return InvalidFlussMarker(fmt::format("not JSON: {:?}", text));
  if (!json.is_object()) return InvalidFlussMarker(fmt::format("not an object of bucket -> offset: {:?}", text));
  FlussMarker marker;
  for (const auto& [name, value] : json.items()) {
    const std::optional<int32_t> bucket = BucketOf(name);
    if (!bucket) return InvalidFlussMarker(fmt::format("bucket {:?} is no number >= 0", name));
    const std::optional<int64_t> offset = OffsetOf(value);
    if (!offset) return InvalidFlussMarker(fmt::format("the offset of bucket {} must be an integer >= 0", *bucket));
    marker.bucket_offsets[*bucket] = *offset;
  }
  if (marker.bucket_offsets.empty()) return InvalidFlussMarker("lists no bucket");
  if (!ListsEveryBucket(marker)) {
    std::vector<int32_t> buckets;
    for (const auto& [bucket, offset] : marker.bucket_offsets) buckets.push_back(bucket);
    return InvalidFlussMarker(
        fmt::format("lists buckets {}, not every bucket 0..{}: a marker lists every bucket of its table", buckets,
                    marker.bucket_offsets.rbegin()->first));
  }
  return marker;
}

RecoveryMarker RecoveryMarkerOf(const FlussMarker& marker) {
  // No topic identity and no boundaries: a Fluss marker holds neither.
  return MarkerOf(TopicIdentity{}, marker.bucket_offsets);
}

Result<FlussMarker> FlussMarkerOf(const RecoveryMarker& marker) {
  if (!marker.topic.name.empty() || !marker.topic.incarnation.empty()) {
    return InvalidFlussMarker(fmt::format(
        "the recovery marker names topic {:?}: it is a Kafka store's marker, and a Fluss marker names no table",
        marker.topic.name));
  }
  if (!marker.completed.empty()) {
    return InvalidFlussMarker(
        "the recovery marker carries completed boundaries, which only a store with tombstones writes; "
        "a Fluss table has none");
  }
  return FlussMarker{marker.offsets};
}

}  // namespace durasim
