// The recovery marker's JSON form (recovery_marker_json.h).
#include "store/recovery_marker_json.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "store/format.h"

namespace durasim {
namespace {

Status InvalidMarkerJson(const std::string& what) {
  return Status(StatusCode::kInvalidArgument, "recovery marker JSON: " + what);
}

}  // namespace

std::string MarkerToJson(const RecoveryMarker& marker) {
  nlohmann::ordered_json json;
  json["version"] = marker.version;
  json["topic"] = marker.topic.name;
  json["incarnation"] = marker.topic.incarnation;
  nlohmann::ordered_json offsets = nlohmann::ordered_json::object();
  for (const auto& [partition, offset] : marker.offsets) offsets[std::to_string(partition)] = offset;
  json["offsets"] = offsets;
  if (!marker.completed.empty()) {
    nlohmann::ordered_json completed = nlohmann::ordered_json::object();
    for (const auto& [key, seq] : marker.completed) completed[key] = seq;
    json["completed"] = completed;
  }
  // Keys are bytes (they may not be UTF-8): replaced, as in JSON reports.
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

Result<RecoveryMarker> MarkerFromJson(const std::string& text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return InvalidMarkerJson("not JSON: " + text);
  if (!json.is_object()) return InvalidMarkerJson("not an object");
  for (const auto& [field, value] : json.items()) {
    if (field != "version" && field != "topic" && field != "incarnation" && field != "offsets" && field != "completed") {
      return InvalidMarkerJson(
          fmt::format("unknown field {:?} (the fields: version, topic, incarnation, offsets, completed)", field));
    }
  }
  RecoveryMarker marker;
  if (!json.contains("version") || !json["version"].is_number_integer()) {
    return InvalidMarkerJson("\"version\" must be a number");
  }
  marker.version = json["version"].get<int32_t>();
  if (!json.contains("topic") || !json["topic"].is_string()) return InvalidMarkerJson("\"topic\" must be a string");
  marker.topic.name = json["topic"].get<std::string>();
  if (!json.contains("incarnation") || !json["incarnation"].is_string()) {
    return InvalidMarkerJson("\"incarnation\" must be a string");
  }
  marker.topic.incarnation = json["incarnation"].get<std::string>();
  if (!json.contains("offsets") || !json["offsets"].is_object()) {
    return InvalidMarkerJson("\"offsets\" must be an object of partition -> offset");
  }
  for (const auto& [name, offset] : json["offsets"].items()) {
    int32_t partition = -1;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), partition);
    if (error != std::errc() || end != name.data() + name.size() || partition < 0) {
      return InvalidMarkerJson(fmt::format("partition {:?} is no number >= 0", name));
    }
    if (!offset.is_number_integer() || offset.get<int64_t>() < 0) {
      return InvalidMarkerJson(fmt::format("the offset of partition {} must be a number >= 0", partition));
    }
    marker.offsets[partition] = offset.get<int64_t>();
  }
  if (json.contains("completed")) {
    if (!json["completed"].is_object()) {
      return InvalidMarkerJson("\"completed\" must be an object of key -> sequence number");
    }
    for (const auto& [key, seq] : json["completed"].items()) {
      if (!seq.is_number_integer() || seq.get<int64_t>() < 0) {
        return InvalidMarkerJson(fmt::format("the completed sequence number of key {:?} must be a number >= 0", key));
      }
      marker.completed[key] = seq.get<int64_t>();
    }
  }
  return marker;
}

}  // namespace durasim
