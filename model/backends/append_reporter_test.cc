// Tests of AppendReporter: each position reported once, and where a
// discovery has something left to find.
#include "model/backends/append_reporter.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace durasim {
namespace {

LogRecord At(int32_t partition, int64_t offset) {
  LogRecord record;
  record.partition = partition;
  record.offset = offset;
  record.key = "k";
  record.value = "v" + std::to_string(offset);
  return record;
}

// Strategy: offsets 0, 1 and 3 of partition 0 reported, 2 not, and
// partition 1 untouched: the first unreported offset is the first gap at or
// above `from`, per partition, whatever lies above the gap.
// Invariant: FirstUnreported(p, from) is the least offset >= from of p not reported.
TEST(AppendReporterTest, FirstUnreportedIsTheFirstGapAtOrAboveFrom) {
  AppendReporter reporter;
  for (int64_t offset : {0, 1, 3}) reporter.Report(At(0, offset), AppendSeen::kAppended);
  EXPECT_EQ(reporter.FirstUnreported(0, 0), 2);
  EXPECT_EQ(reporter.FirstUnreported(0, 1), 2);
  EXPECT_EQ(reporter.FirstUnreported(0, 2), 2);
  EXPECT_EQ(reporter.FirstUnreported(0, 3), 4);
  EXPECT_EQ(reporter.FirstUnreported(0, 7), 7);
  EXPECT_EQ(reporter.FirstUnreported(1, 0), 0);
  reporter.MarkReported({1, 0});
  EXPECT_EQ(reporter.FirstUnreported(1, 0), 1);
  reporter.Forget();
  EXPECT_EQ(reporter.FirstUnreported(0, 0), 0);
}

// Strategy: a discovery over a whole log and over the part of it from each
// partition's first unreported offset on (as the backends read it) report
// the same records, each once, with kDiscovered; what was reported before
// is not reported again.
// Invariant: below FirstUnreported, Discover has nothing to report.
TEST(AppendReporterTest, DiscoveryFromTheFirstUnreportedOffsetFindsWhatTheWholeLogGives) {
  const std::vector<std::vector<LogRecord>> log = {{At(0, 0), At(0, 1), At(0, 2), At(0, 3)}, {At(1, 0)}};
  auto discover = [&](bool from_first_unreported) {
    AppendReporter reporter;
    std::vector<std::pair<int32_t, int64_t>> found;
    reporter.Report(At(0, 0), AppendSeen::kAppended);
    reporter.Report(At(0, 2), AppendSeen::kAppended);
    reporter.Listen([&](const LogRecord& record, AppendSeen seen) {
      EXPECT_EQ(seen, AppendSeen::kDiscovered);
      found.emplace_back(record.partition, record.offset);
    });
    std::vector<std::vector<LogRecord>> read = log;
    if (from_first_unreported) {
      for (std::vector<LogRecord>& partition : read) {
        std::erase_if(partition, [&](const LogRecord& r) { return r.offset < reporter.FirstUnreported(r.partition, 0); });
      }
    }
    reporter.Discover(read);
    reporter.Discover(read);  // nothing new the second time
    return found;
  };
  const std::vector<std::pair<int32_t, int64_t>> expected = {{0, 1}, {0, 3}, {1, 0}};
  EXPECT_EQ(discover(false), expected);
  EXPECT_EQ(discover(true), expected);
}

}  // namespace
}  // namespace durasim
