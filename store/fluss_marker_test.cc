// Tests of the Fluss store's recovery marker: its encoded form, its decode
// errors, and its mapping into the RecoveryMarker the runtime carries.
#include "store/fluss_marker.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace durasim {
namespace {

TEST(FlussMarkerTest, RoundTripsThroughItsTextAndTheRuntimesMarker) {
  // Strategy: a marker of three buckets encodes to the documented plain
  // object (no version, no table id) and decodes back to itself. Mapped into
  // a RecoveryMarker, it keeps its offsets, names no topic and carries no
  // boundaries, and maps back to itself.
  const FlussMarker marker{{{0, 3}, {1, 0}, {2, 41}}};
  const std::string text = EncodeFlussMarker(marker);
  EXPECT_EQ(text, R"({"0":3,"1":0,"2":41})");
  Result<FlussMarker> decoded = DecodeFlussMarker(text);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, marker);

  const RecoveryMarker carried = RecoveryMarkerOf(marker);
  EXPECT_EQ(carried.offsets, (MarkerOffsets{{0, 3}, {1, 0}, {2, 41}}));
  EXPECT_EQ(carried.topic, TopicIdentity{});
  EXPECT_TRUE(carried.completed.empty());
  Result<FlussMarker> back = FlussMarkerOf(carried);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, marker);
}

TEST(FlussMarkerTest, DecodesBucketsPastNineInNumberOrder) {
  // Strategy: twelve buckets: JSON sorts "10" before "2" as text; the
  // marker still lists 0..11 and encodes them in bucket order.
  FlussMarker marker;
  for (int32_t bucket = 0; bucket < 12; ++bucket) marker.bucket_offsets[bucket] = bucket * 2;
  Result<FlussMarker> decoded = DecodeFlussMarker(EncodeFlussMarker(marker));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, marker);
  EXPECT_EQ(EncodeFlussMarker(marker).substr(0, 18), R"({"0":0,"1":2,"2":4)");
}

TEST(FlussMarkerTest, DecodeRejectsWhatIsNoMarkerNamingIt) {
  // Strategy: each bad text is an invalid recovery (kInvalidRecovery, never
  // a crash or a default), and the message names what is wrong.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "not JSON"},
      {"", "not JSON"},
      {"[0, 3]", "not an object of bucket -> offset"},
      {"3", "not an object of bucket -> offset"},
      {R"({"x":1})", "bucket \"x\" is no number >= 0"},
      {R"({"-1":1})", "bucket \"-1\" is no number >= 0"},
      {R"({"01":1})", "bucket \"01\" is no number >= 0"},
      {R"({" 0":1})", "bucket \" 0\" is no number >= 0"},
      {R"({"99999999999":1})", "bucket \"99999999999\" is no number >= 0"},
      {R"({"0":-1})", "the offset of bucket 0 must be an integer >= 0"},
      {R"({"0":1.5})", "the offset of bucket 0 must be an integer >= 0"},
      {R"({"0":"3"})", "the offset of bucket 0 must be an integer >= 0"},
      {R"({"0":18446744073709551615})", "the offset of bucket 0 must be an integer >= 0"},
      {"{}", "lists no bucket"},
      {R"({"1":3})", "lists buckets [1], not every bucket 0..1"},
      {R"({"0":3,"2":0})", "lists buckets [0, 2], not every bucket 0..2"},
  };
  for (const auto& [text, named] : cases) {
    Result<FlussMarker> marker = DecodeFlussMarker(text);
    ASSERT_FALSE(marker.ok()) << text;
    EXPECT_EQ(marker.status().code(), StatusCode::kInvalidRecovery) << text;
    EXPECT_NE(marker.status().message().find(named), std::string::npos)
        << text << ": \"" << marker.status().message() << "\" does not name \"" << named << "\"";
    EXPECT_EQ(marker.status().message().rfind("Fluss recovery marker: ", 0), 0u) << marker.status().message();
  }
}

TEST(FlussMarkerTest, ARuntimeMarkerNoFlussStoreWroteIsRejected) {
  // Strategy: a Kafka store's marker names its topic; a marker with
  // completed boundaries comes from a store with tombstones. Neither is a
  // Fluss marker. A marker missing a bucket maps (the table's buckets are
  // what a rebuild compares it with).
  const RecoveryMarker kafka = MarkerOf(TopicIdentity{"state", "1"}, {{0, 3}});
  Result<FlussMarker> named = FlussMarkerOf(kafka);
  ASSERT_FALSE(named.ok());
  EXPECT_EQ(named.status().code(), StatusCode::kInvalidRecovery);
  EXPECT_NE(named.status().message().find("names topic \"state\""), std::string::npos) << named.status().message();

  RecoveryMarker bounded = RecoveryMarkerOf(FlussMarker{{{0, 3}}});
  bounded.completed = {{"a", 1}};
  Result<FlussMarker> with_boundaries = FlussMarkerOf(bounded);
  ASSERT_FALSE(with_boundaries.ok());
  EXPECT_NE(with_boundaries.status().message().find("completed boundaries"), std::string::npos);

  Result<FlussMarker> gap = FlussMarkerOf(MarkerOf(TopicIdentity{}, {{1, 3}}));
  ASSERT_TRUE(gap.ok()) << gap.status().ToString();
  EXPECT_FALSE(ListsEveryBucket(*gap));
}

TEST(FlussMarkerTest, ListsEveryBucketMeansZeroToNMinusOne) {
  // Strategy: the shape every written marker has, and its near misses.
  EXPECT_TRUE(ListsEveryBucket(FlussMarker{{{0, 0}}}));
  EXPECT_TRUE(ListsEveryBucket(FlussMarker{{{0, 5}, {1, 0}, {2, 7}}}));
  EXPECT_FALSE(ListsEveryBucket(FlussMarker{}));
  EXPECT_FALSE(ListsEveryBucket(FlussMarker{{{1, 0}}}));
  EXPECT_FALSE(ListsEveryBucket(FlussMarker{{{0, 0}, {2, 0}}}));
  EXPECT_FALSE(ListsEveryBucket(FlussMarker{{{-1, 0}, {0, 0}}}));
}

}  // namespace
}  // namespace durasim
