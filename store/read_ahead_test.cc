// ReadAhead: a held range answers one read of exactly that range; a failure
// is served once and clears what was held.
// Strategy: hold answers of known ranges and read them back exactly, off by
// one, twice and after a failure; no log involved.
#include "store/read_ahead.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

std::vector<LogRecord> Records(int32_t partition, int64_t from, int64_t to) {
  std::vector<LogRecord> records;
  for (int64_t offset = from; offset < to; ++offset) {
    records.push_back(LogRecord{partition, offset, "k" + std::to_string(offset), "v"});
  }
  return records;
}

TEST(ReadAheadTest, AHeldRangeAnswersOneReadOfExactlyThatRange) {
  ReadAhead ahead;
  ahead.Hold({{0, 2, 5}, {1, 0, 3}}, std::vector<std::vector<LogRecord>>{Records(0, 2, 5), Records(1, 0, 3)});
  std::optional<Result<std::vector<LogRecord>>> first = ahead.Take(1, 0, 3);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(first->ok());
  ASSERT_EQ((*first)->size(), 3u);
  EXPECT_EQ((**first)[2].offset, 2);
  EXPECT_FALSE(ahead.Take(1, 0, 3).has_value());  // once
  std::optional<Result<std::vector<LogRecord>>> other = ahead.Take(0, 2, 5);
  ASSERT_TRUE(other.has_value() && other->ok());
  EXPECT_EQ((**other).front().offset, 2);
  EXPECT_TRUE(ahead.empty());
}

TEST(ReadAheadTest, AnotherRangeOfAHeldPartitionIsNotAnsweredAndDropsIt) {
  ReadAhead ahead;
  ahead.Hold({{0, 0, 4}}, std::vector<std::vector<LogRecord>>{Records(0, 0, 4)});
  EXPECT_FALSE(ahead.Take(0, 1, 4).has_value());
  EXPECT_FALSE(ahead.Take(0, 0, 4).has_value());  // dropped: the caller read otherwise
  EXPECT_FALSE(ahead.Take(7, 0, 4).has_value());  // never held
}

TEST(ReadAheadTest, AFailureIsServedToTheFirstReadOfAnyRangeThenEverythingGoes) {
  ReadAhead ahead;
  ahead.Hold({{0, 0, 4}, {1, 0, 4}},
             Result<std::vector<std::vector<LogRecord>>>(Status(StatusCode::kUnavailable, "read of [0, 4) of p1: down")));
  std::optional<Result<std::vector<LogRecord>>> answer = ahead.Take(0, 0, 4);
  ASSERT_TRUE(answer.has_value());
  ASSERT_FALSE(answer->ok());
  EXPECT_EQ(answer->status().code(), StatusCode::kUnavailable);
  EXPECT_NE(answer->status().message().find("p1: down"), std::string::npos);
  EXPECT_TRUE(ahead.empty());
  EXPECT_FALSE(ahead.Take(1, 0, 4).has_value());  // asked afresh
}

TEST(ReadAheadTest, HoldReplacesAndClearDrops) {
  ReadAhead ahead;
  ahead.Hold({{0, 0, 2}}, std::vector<std::vector<LogRecord>>{Records(0, 0, 2)});
  ahead.Hold({{1, 0, 1}}, std::vector<std::vector<LogRecord>>{Records(1, 0, 1)});
  EXPECT_FALSE(ahead.Take(0, 0, 2).has_value());
  ahead.Clear();
  EXPECT_FALSE(ahead.Take(1, 0, 1).has_value());
}

}  // namespace
}  // namespace durasim
