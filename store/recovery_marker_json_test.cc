// Tests of the recovery marker's JSON form.
#include "store/recovery_marker_json.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

// Strategy: a marker with every field survives the round trip, and its
// JSON is the documented shape.
TEST(RecoveryMarkerJsonTest, RoundTrips) {
  RecoveryMarker marker = MarkerOf(TopicIdentity{"state", "group-offset-7"}, {{0, 3}, {1, 0}});
  marker.completed = {{"a", 1}, {"b_c", 4}};
  const std::string json = MarkerToJson(marker);
  EXPECT_EQ(json, R"({"version":2,"topic":"state","incarnation":"group-offset-7","offsets":{"0":3,"1":0},)"
                  R"("completed":{"a":1,"b_c":4}})");
  Result<RecoveryMarker> back = MarkerFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, marker);
}

// Strategy: bad input is named, never a crash or a silent default.
TEST(RecoveryMarkerJsonTest, RejectsWhatIsNoMarker) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "not JSON"},
      {"[]", "not an object"},
      {R"({"topic":"t","incarnation":"i","offsets":{}})", "\"version\""},
      {R"({"version":2,"incarnation":"i","offsets":{}})", "\"topic\""},
      {R"({"version":2,"topic":"t","offsets":{}})", "\"incarnation\""},
      {R"({"version":2,"topic":"t","incarnation":"i"})", "\"offsets\""},
      {R"({"version":2,"topic":"t","incarnation":"i","offsets":{"x":1}})", "partition \"x\""},
      {R"({"version":2,"topic":"t","incarnation":"i","offsets":{"-1":1}})", "partition \"-1\""},
      {R"({"version":2,"topic":"t","incarnation":"i","offsets":{"0":-1}})", "offset of partition 0"},
      {R"({"version":2,"topic":"t","incarnation":"i","offsets":{},"completed":{"a":"1"}})", "key \"a\""},
      {R"({"version":2,"topic":"t","incarnation":"i","offsets":{},"extra":1})", "unknown field \"extra\""},
  };
  for (const auto& [text, named] : cases) {
    Result<RecoveryMarker> marker = MarkerFromJson(text);
    ASSERT_FALSE(marker.ok()) << text;
    EXPECT_EQ(marker.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(marker.status().message().find(named), std::string::npos) << marker.status().message();
  }
}

}  // namespace
}  // namespace durasim
