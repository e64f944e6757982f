// Tests of LogOperator: each operation on the model's log, done directly on
// a world (no attempt), and its effect on the log, on the world's record of
// it (lifecycle, corrupted and foreign records), on its coverage count and
// on the trace line it writes.
#include "model/log_operator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "store/recovery_marker.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;

Scenario TwoPartitions() {
  Scenario scenario;
  scenario.name = "log_operator";
  scenario.log.partitions = 2;
  return scenario;
}

class LogOperatorTest : public ::testing::Test {
 protected:
  LogOperatorTest() : scenario_(TwoPartitions()) {}

  void SetUp() override {
    world_ = std::make_unique<World>(scenario_);
    world_->BeginAttempt(1);
    world_->EnterLineage(1);
    operator_ = std::make_unique<LogOperator>(*world_);
  }

  // Appends a record as the run's job would: to the log, and noted by the
  // harness at the current simulated time (Attempt::OnAppended).
  RecordPosition Append(int32_t partition, const std::string& key, const std::string& value) {
    const RecordPosition at = world_->log().Append(partition, key, value);
    world_->lifecycle().NoteAppend(LogRecord{at.partition, at.offset, key, value}, world_->now());
    world_->NoteWritten(LogRecord{at.partition, at.offset, key, value}, world_->attempt());
    return at;
  }
  int64_t Count(LogEvent event) const {
    const std::map<std::string, int64_t> hits = world_->fault_hits();
    auto it = hits.find(CoveragePoint::Happened(event).Name());
    return it == hits.end() ? 0 : it->second;
  }
  // The kind and detail of the last trace line (after its time and
  // attempt), the padding after the kind squeezed to one space.
  std::string LastLine() const {
    const std::string line(world_->trace().line(world_->trace().size() - 1));
    std::string squeezed;
    for (const char c : line.substr(line.find(" a1 ") + 4)) {
      if (c != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed += c;
    }
    return squeezed;
  }

  Scenario scenario_;
  std::unique_ptr<World> world_;
  std::unique_ptr<LogOperator> operator_;
};

// Strategy: corrupting an existing record overwrites its value, notes it as
// corrupted and traces it; a position without a record is an error that
// changes nothing.
TEST_F(LogOperatorTest, CorruptOverwritesARecordAndNotesIt) {
  Append(1, "k", "v");
  ASSERT_TRUE(operator_->Corrupt(1, 0).ok());
  EXPECT_EQ(world_->log().Find(1, 0)->value, kCorruptValue);
  EXPECT_EQ(world_->corrupted(), (CorruptedPositions{{1, 0}}));
  EXPECT_EQ(LastLine(), "log.corrupted partition=1 offset=0");

  const size_t lines = world_->trace().size();
  const Status missing = operator_->Corrupt(0, 3);
  EXPECT_EQ(missing.message(), "corrupt: no record at partition 0 offset 3");
  EXPECT_EQ(world_->corrupted(), (CorruptedPositions{{1, 0}}));
  EXPECT_EQ(world_->trace().size(), lines);
}

// Strategy: a foreign record is appended without being the run's, its key
// taken from a record in the log when asked; it is counted, traced, and a
// restore whose range holds it is told so (restore.foreign). A partition
// not there yet, or a record to take from that is not there, is an error.
TEST_F(LogOperatorTest, AppendForeignAddsARecordTheRunDidNotWrite) {
  Append(0, "taken-key", "v");
  ForeignRecordSpec spec;
  spec.key_of = 0;
  spec.value = "bytes";
  ASSERT_TRUE(operator_->AppendForeign(0, spec).ok());
  const LogRecord* foreign = world_->log().Find(0, 1);
  ASSERT_NE(foreign, nullptr);
  EXPECT_EQ(foreign->key, "taken-key");
  EXPECT_EQ(foreign->value, "bytes");
  EXPECT_EQ(world_->WriterLineage(0, 1), 0);  // not the run's
  EXPECT_EQ(Count(LogEvent::kForeignRecord), 1);
  EXPECT_EQ(LastLine(), "log.foreign partition=0 offset=1 key=\"taken-key\" bytes=5");

  Checkpoint checkpoint;
  checkpoint.id = "c";
  checkpoint.attempt = 1;
  checkpoint.markers.push_back(MarkerOf(world_->log().topic(), {{0, 0}, {1, 0}}));
  operator_->NoteForeignReads(checkpoint, checkpoint.markers);
  ASSERT_TRUE(world_->foreign_read().has_value());
  EXPECT_EQ(world_->foreign_read()->offset, 1);
  EXPECT_EQ(LastLine(),
            "restore.foreign records=1 first_partition=0 first_offset=1 first_key=\"taken-key\" written_by=outside");

  EXPECT_EQ(operator_->AppendForeign(2, ForeignRecordSpec{}).message(),
            "foreign: partition 2 does not exist yet (the topic has 2 partitions at this step)");
  spec.key_of = 9;
  EXPECT_EQ(operator_->AppendForeign(0, spec).message(), "foreign: no record at partition 0 offset 9 to take the key of");
  EXPECT_EQ(Count(LogEvent::kForeignRecord), 1);
}

// Strategy: deleting records moves the log start and the lifecycle's start,
// counted and traced once; deleting below the start again changes nothing.
TEST_F(LogOperatorTest, DeleteRecordsMovesTheLogStart) {
  for (int i = 0; i < 3; ++i) Append(0, "k" + std::to_string(i), "v");
  ASSERT_TRUE(operator_->DeleteRecords(0, 2).ok());
  EXPECT_EQ(world_->log().Offsets(0).start, 2);
  EXPECT_EQ(world_->lifecycle().start(0), 2);
  EXPECT_EQ(Count(LogEvent::kDeleteRecords), 1);
  EXPECT_EQ(LastLine(), "log.deleted partition=0 records=[0, 2) start=2");

  const size_t lines = world_->trace().size();
  ASSERT_TRUE(operator_->DeleteRecords(0, 1).ok());
  EXPECT_EQ(world_->lifecycle().start(0), 2);
  EXPECT_EQ(Count(LogEvent::kDeleteRecords), 1);
  EXPECT_EQ(world_->trace().size(), lines);
}

// Strategy: retention deletes, per partition, the records older than
// log.retention_ms, counted and traced as retention; records young enough
// stay.
TEST_F(LogOperatorTest, RetentionDeletesWhatExpired) {
  scenario_.log.retention_ms = 100;
  Append(0, "old", "v");
  Append(1, "old", "v");
  world_->clock().now = milliseconds(50);
  Append(1, "young", "v");
  ASSERT_TRUE(operator_->ApplyRetention().ok());
  EXPECT_EQ(Count(LogEvent::kRetention), 0);  // nothing expired yet

  world_->clock().now = milliseconds(120);
  ASSERT_TRUE(operator_->ApplyRetention().ok());
  EXPECT_EQ(world_->log().Offsets(0).start, 1);
  EXPECT_EQ(world_->log().Offsets(1).start, 1);  // the young record stays
  EXPECT_EQ(Count(LogEvent::kRetention), 2);
  EXPECT_EQ(LastLine(), "log.retention partition=1 records=[0, 1) start=1");
}

// Strategy: compaction removes a superseded record, which is then no longer
// corrupted, counted and traced with what it removed.
TEST_F(LogOperatorTest, CompactRemovesSupersededRecords) {
  Append(0, "k", "v1");
  Append(0, "k", "v2");
  Append(1, "other", "v");
  operator_->MarkCorrupted(0, 0);
  ASSERT_TRUE(operator_->Compact().ok());
  EXPECT_EQ(world_->log().Find(0, 0), nullptr);
  EXPECT_NE(world_->log().Find(0, 1), nullptr);
  EXPECT_TRUE(world_->lifecycle().Removed(0, 0));
  EXPECT_TRUE(world_->corrupted().empty());
  EXPECT_EQ(Count(LogEvent::kCompact), 1);
  EXPECT_EQ(LastLine(), "log.compacted records_removed=1");

  ASSERT_TRUE(operator_->Compact().ok());  // nothing left to remove: not counted
  EXPECT_EQ(Count(LogEvent::kCompact), 1);
  EXPECT_EQ(LastLine(), "log.compacted records_removed=0");
}

// Strategy: added partitions join the log and the lifecycle, counted and
// traced with the count before and after; none added is a broken precondition.
TEST_F(LogOperatorTest, AddPartitionsGrowsTheTopic) {
  ASSERT_TRUE(operator_->AddPartitions(2).ok());
  EXPECT_EQ(world_->log().partitions(), 4);
  EXPECT_EQ(world_->lifecycle().partitions(), 4);
  EXPECT_EQ(Count(LogEvent::kAddPartitions), 1);
  EXPECT_EQ(LastLine(), "log.partitions_added partitions=4 was=2");
  EXPECT_DEATH((void)operator_->AddPartitions(0), "check failed");
}

// Strategy: re-creating the topic traces it and fails the job over before
// the topic goes (the callback still sees the old records), then the log
// is empty, the incarnation moves on, and no record is corrupted or the
// run's any more.
TEST_F(LogOperatorTest, RecreateTopicFailsTheJobOverFirst) {
  Append(0, "k", "v");
  operator_->MarkCorrupted(0, 0);
  size_t records_at_fail_over = 0;
  std::string line_at_fail_over;
  ASSERT_TRUE(operator_
                  ->RecreateTopic([&] {
                    records_at_fail_over = world_->log().total_records();
                    line_at_fail_over = LastLine();
                  })
                  .ok());
  EXPECT_EQ(records_at_fail_over, 1u);
  EXPECT_EQ(line_at_fail_over, "log.recreated incarnation=2");
  EXPECT_EQ(world_->log().total_records(), 0u);
  EXPECT_EQ(world_->lifecycle().incarnation(), 2);
  EXPECT_TRUE(world_->corrupted().empty());
  EXPECT_EQ(world_->WriterLineage(0, 0), 0);
  EXPECT_EQ(Count(LogEvent::kRecreateTopic), 1);
}

}  // namespace
}  // namespace durasim
