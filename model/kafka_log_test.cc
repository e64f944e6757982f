// Tests of KafkaLog, the broker's durable state in the simulated world:
// offsets per partition, reads clipped to a partition, finding and
// corrupting records, the availability window.
#include "model/kafka_log.h"


#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(KafkaLogTest, AppendAssignsOffsetsPerPartition) {
  // Strategy: appends to two partitions get dense offsets from 0 in each;
  // Offsets reports [0, count) per partition; the append listener sees each
  // stored record.
  KafkaLog log(2);
  std::vector<LogRecord> seen;
  log.set_append_listener([&](const LogRecord& record) { seen.push_back(record); });
  EXPECT_EQ(log.Append(0, "a", "1"), (RecordPosition{0, 0}));
  EXPECT_EQ(log.Append(1, "b", "2"), (RecordPosition{1, 0}));
  EXPECT_EQ(log.Append(0, "c", "3"), (RecordPosition{0, 1}));

  EXPECT_EQ(log.partitions(), 2);
  EXPECT_EQ(log.total_records(), 3u);
  EXPECT_EQ(log.Offsets(0).start, 0);
  EXPECT_EQ(log.Offsets(0).end, 2);
  EXPECT_EQ(log.Offsets(1).start, 0);
  EXPECT_EQ(log.Offsets(1).end, 1);

  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2].partition, 0);
  EXPECT_EQ(seen[2].offset, 1);
  EXPECT_EQ(seen[2].key, "c");
  EXPECT_EQ(seen[2].value, "3");
}

// Strategy: a record appended unheard (from outside the run) takes the
// next offset like any other but never reaches the append listener.
TEST(KafkaLogTest, AppendUnheardSkipsTheListener) {
  KafkaLog log(1);
  std::vector<int64_t> heard;
  log.set_append_listener([&](const LogRecord& record) { heard.push_back(record.offset); });
  log.Append(0, "k", "v");
  EXPECT_EQ(log.AppendUnheard(0, "other", "x").offset, 1);
  log.Append(0, "k", "w");
  EXPECT_EQ(heard, (std::vector<int64_t>{0, 2}));
  ASSERT_NE(log.Find(0, 1), nullptr);
  EXPECT_EQ(log.Find(0, 1)->key, "other");
}

TEST(KafkaLogTest, ReadReturnsTheRangeClippedToThePartition) {
  // Strategy: reads of [from, to) ranges inside, across and outside the
  // partition's records return exactly the records in both, in offset order.
  KafkaLog log(1);
  for (int i = 0; i < 4; ++i) (void)log.Append(0, "k" + std::to_string(i), "v" + std::to_string(i));

  auto offsets_of = [&](int64_t from, int64_t to) {
    std::vector<int64_t> offsets;
    for (const LogRecord& record : log.Read(0, from, to)) offsets.push_back(record.offset);
    return offsets;
  };
  EXPECT_EQ(offsets_of(0, 4), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(offsets_of(1, 3), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(offsets_of(2, 100), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(offsets_of(-5, 1), (std::vector<int64_t>{0}));
  EXPECT_TRUE(offsets_of(2, 2).empty());
  EXPECT_TRUE(offsets_of(3, 1).empty());
  EXPECT_TRUE(offsets_of(4, 10).empty());

  const std::vector<LogRecord> records = log.Read(0, 1, 2);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, "k1");
  EXPECT_EQ(records[0].value, "v1");
}

TEST(KafkaLogTest, FindAndCorrupt) {
  // Strategy: Find returns the stored record or nullptr for any position the
  // log does not hold (bad partition, negative or past-the-end offset).
  // Corrupt rewrites only the value of an existing record, and returns false,
  // changing nothing, for a missing one.
  KafkaLog log(2);
  (void)log.Append(1, "key", "value");

  const LogRecord* found = log.Find(1, 0);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->key, "key");
  EXPECT_EQ(found->value, "value");
  EXPECT_EQ(log.Find(0, 0), nullptr);
  EXPECT_EQ(log.Find(1, 1), nullptr);
  EXPECT_EQ(log.Find(1, -1), nullptr);
  EXPECT_EQ(log.Find(2, 0), nullptr);
  EXPECT_EQ(log.Find(-1, 0), nullptr);

  EXPECT_FALSE(log.Corrupt(0, 0));
  EXPECT_FALSE(log.Corrupt(1, 1));
  EXPECT_FALSE(log.Corrupt(1, -1));
  EXPECT_FALSE(log.Corrupt(5, 0));
  EXPECT_EQ(log.Find(1, 0)->value, "value");
  EXPECT_EQ(log.total_records(), 1u);

  EXPECT_TRUE(log.Corrupt(1, 0));
  EXPECT_EQ(log.Find(1, 0)->key, "key");
  EXPECT_NE(log.Find(1, 0)->value, "value");
  EXPECT_EQ(log.total_records(), 1u);
}

TEST(KafkaLogTest, AvailabilityWindow) {
  // Strategy: the broker is down strictly before down_until and up from it.
  KafkaLog log(1);
  EXPECT_TRUE(log.IsUp(SimTime(0)));
  log.SetDownUntil(milliseconds(50));
  EXPECT_FALSE(log.IsUp(SimTime(0)));
  EXPECT_FALSE(log.IsUp(SimTime(49999)));
  EXPECT_TRUE(log.IsUp(milliseconds(50)));
  EXPECT_EQ(log.down_until(), milliseconds(50));
}

}  // namespace
}  // namespace durasim

namespace durasim {
namespace {

TEST(KafkaLogTest, DeleteRecordsMovesTheLogStart) {
  // Strategy: five records; deleting below 2 leaves [2, 5): reads clip to it,
  // Find misses the deleted ones, appends go on at 5; a lower offset changes
  // nothing and one past the end is clipped to it.
  KafkaLog log(1);
  for (int i = 0; i < 5; ++i) log.Append(0, "k", std::to_string(i));
  EXPECT_EQ(log.DeleteRecords(0, 2), 2);
  EXPECT_EQ(log.Offsets(0).start, 2);
  EXPECT_EQ(log.Offsets(0).end, 5);
  EXPECT_EQ(log.Find(0, 1), nullptr);
  ASSERT_NE(log.Find(0, 2), nullptr);
  EXPECT_EQ(log.Find(0, 2)->value, "2");
  std::vector<LogRecord> read = log.Read(0, 0, 5);
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read.front().offset, 2);
  EXPECT_EQ(log.Append(0, "k", "5"), (RecordPosition{0, 5}));
  EXPECT_EQ(log.DeleteRecords(0, 1), 2);
  EXPECT_EQ(log.DeleteRecords(0, 99), 6);
  EXPECT_EQ(log.Offsets(0).start, 6);
  EXPECT_EQ(log.total_records(), 0u);
}

TEST(KafkaLogTest, AddPartitionsAppendsEmptyPartitions) {
  // Strategy: the new partitions are numbered on after the old ones, start
  // empty at offset 0, and take appends; the old ones keep their records.
  KafkaLog log(1);
  log.Append(0, "k", "0");
  log.AddPartitions(2);
  EXPECT_EQ(log.partitions(), 3);
  EXPECT_EQ(log.Offsets(0).end, 1);
  EXPECT_EQ(log.Offsets(2).start, 0);
  EXPECT_EQ(log.Offsets(2).end, 0);
  EXPECT_EQ(log.Append(2, "k", "1"), (RecordPosition{2, 0}));
}

TEST(KafkaLogTest, CompactionRemovesTombstonesOnlyPastTheirHorizon) {
  // Strategy: a tombstone that is its key's latest record stays unless the
  // rule says its horizon passed; a superseded tombstone is removed as any
  // superseded record; without a rule no tombstone goes.
  KafkaLog log(1);
  log.Append(0, "a", "1");
  log.Append(0, "a", "");   // the latest record of a: a tombstone
  log.Append(0, "b", "");   // superseded by b's next record
  log.Append(0, "b", "2");
  using Positions = std::vector<std::pair<int32_t, int64_t>>;
  const Compaction kept = CompactionOf({log.Read(0, 0, 4)}, {});
  EXPECT_EQ(kept.superseded, (Positions{{0, 0}, {0, 2}}));
  EXPECT_TRUE(kept.tombstones_expired.empty());
  const Compaction not_yet = log.Compact([](int32_t, int64_t) { return false; });
  EXPECT_TRUE(not_yet.tombstones_expired.empty());
  EXPECT_EQ(log.total_records(), 2u);
  const Compaction expired = log.Compact([](int32_t p, int64_t o) { return p == 0 && o == 1; });
  EXPECT_EQ(expired.tombstones_expired, (Positions{{0, 1}}));
  EXPECT_EQ(expired.removed(), 1u);
  EXPECT_EQ(log.total_records(), 1u);
  EXPECT_EQ(log.Offsets(0).end, 4);  // offsets keep their gaps
}

}  // namespace
}  // namespace durasim
