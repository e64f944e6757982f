// Tests for DecodedValues.
#include "model/decoded_values.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

std::string ValueOf(int64_t seq) {
  ActionState state;
  state.completed = seq % 2 == 0;
  return EncodeStateValue(StateKey{"k", seq, 1, 2}, state);
}

// Strategy: a value seen again is a hit and gives what a decode gives; a
// value not among the last eight decodes again; an undecodable value is
// remembered with its error.
TEST(DecodedValuesTest, ASecondDecodeOfTheSameBytesIsALookupWithTheSameResult) {
  DecodedValues values;
  const Result<DecodedState>& first = values.Decode(ValueOf(1));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->state_key.seq, 1);
  EXPECT_EQ(values.hits(), 0);
  const Result<DecodedState>& again = values.Decode(ValueOf(1));
  EXPECT_EQ(values.hits(), 1);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->state_key.seq, 1);
  EXPECT_FALSE(again->state.completed);

  for (int64_t seq = 2; seq <= 9; ++seq) values.Decode(ValueOf(seq));  // eight more: 1 is forgotten
  EXPECT_EQ(values.hits(), 1);
  EXPECT_EQ(values.Decode(ValueOf(1))->state_key.seq, 1);
  EXPECT_EQ(values.hits(), 1);
  EXPECT_TRUE(values.Decode(ValueOf(9))->state.completed == false);
  EXPECT_EQ(values.hits(), 2);

  const std::string broken = "{\"v\":1";
  EXPECT_EQ(values.Decode(broken).status().message(), DecodeStateValue(broken).status().message());
  EXPECT_FALSE(values.Decode(broken).ok());
  EXPECT_EQ(values.hits(), 3);
}

// Strategy: a record key parsed again is a hit with what ParseRecordKey
// gives, errors included; key parses and value decodes are remembered apart
// (a key does not evict a value) and both count as hits.
TEST(DecodedValuesTest, ARecordKeyParsedAgainIsALookupWithTheSameResult) {
  DecodedValues values;
  const std::string record_key = EncodeRecordKey(StateKey{"k", 7, 1, 2});
  const Result<DecodedState>& decoded = values.Decode(ValueOf(1));
  const Result<StateKey>& parsed = values.Key(record_key);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, (StateKey{"k", 7, 1, 2}));
  EXPECT_EQ(values.hits(), 0);
  EXPECT_EQ(values.Key(record_key)->seq, 7);
  EXPECT_EQ(values.hits(), 1);
  EXPECT_EQ(decoded->state_key.seq, 1);  // the value's memo still holds it
  values.Decode(ValueOf(1));
  EXPECT_EQ(values.hits(), 2);

  const std::string not_a_key = "no_fields";
  EXPECT_EQ(values.Key(not_a_key).status().message(), ParseRecordKey(not_a_key).status().message());
  EXPECT_FALSE(values.Key(not_a_key).ok());
  EXPECT_EQ(values.hits(), 3);
}

}  // namespace
}  // namespace durasim
