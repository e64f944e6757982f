// Tests of the readable trace and of the causes violations quote, on the
// #1158 kill file (scenarios/negative/legacy_end_offset_marker_once.yaml).
#include "sim/view/trace_view.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "model/key_groups.h"
#include "sim/scenario/scenario_parser.h"
#include "store/source_tree.h"

namespace durasim {
namespace {

Scenario Load(const std::string& relative) {
  Result<Scenario> scenario = LoadScenarioFile(SourceTree() + "/" + relative);
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  return scenario.value();
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// Strategy: every hashed line comes back with its own event number, in
// order, and keeps its time, attempt and kind (greps of the hashed lines
// still match); action and event hashes become names; the lines the once
// violation cites are marked; record lines say what they hold. The hash is
// the hashed lines', which rendering does not touch.
TEST(TraceViewTest, NumbersNamesAndMarksEveryLine) {
  const Scenario scenario = Load("scenarios/negative/legacy_end_offset_marker_once.yaml");
  const RunReport report = RunScenario(scenario, RunOptions{});
  ASSERT_FALSE(report.violations.empty());
  const uint64_t hash = report.trace_hash;
  const std::vector<std::string> lines = ReadableTrace(report, scenario, TraceFilter{});
  ASSERT_EQ(lines.size(), report.trace.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(fmt::format("#{} ", i), 0), 0u) << lines[i];
    // The head of the hashed line (time, attempt, kind) is kept as it is.
    std::istringstream hashed{std::string(report.trace.line(i))};
    std::string time, attempt, kind;
    hashed >> time >> attempt >> kind;
    EXPECT_NE(lines[i].find(time + " " + attempt + " " + kind), std::string::npos) << lines[i];
  }
  const std::string text = Joined(lines);
  EXPECT_EQ(text.find("action_name="), std::string::npos) << text;
  EXPECT_FALSE(std::regex_search(text, std::regex("(event|action)=[0-9a-f]{16}"))) << text;
  EXPECT_NE(text.find("event=input action=ask_llm"), std::string::npos) << text;
  EXPECT_NE(text.find("<== once"), std::string::npos) << text;
  EXPECT_NE(text.find("=> call done: call 0 llm SUCCEEDED 70"), std::string::npos) << text;
  for (size_t index : report.violations.front().evidence) {
    EXPECT_NE(lines[index].find("<== once"), std::string::npos) << lines[index];
  }
  EXPECT_EQ(RunScenario(scenario, RunOptions{}).trace_hash, hash);
}

// Strategy: the once violation of #1158 says why: the last restore's line
// with its marker and scan, and the saved result record below that marker.
TEST(TraceViewTest, OnceViolationQuotesTheRestoreAndTheRecordBelowItsMarker) {
  const Scenario scenario = Load("scenarios/negative/legacy_end_offset_marker_once.yaml");
  const RunReport report = RunScenario(scenario, RunOptions{});
  ASSERT_FALSE(report.violations.empty());
  const std::string& message = report.violations.front().message;
  EXPECT_NE(message.find("cause: attempt 3 restored cp2 from marker {0: "), std::string::npos) << message;
  EXPECT_TRUE(std::regex_search(
      message, std::regex(R"(cause: attempt 3 restored cp2 .*: #\d+ +[0-9.]+ms a3 restore +checkpoint=cp2 marker=\{0: 3\} .*scanned=0)")))
      << message;
  EXPECT_TRUE(std::regex_search(
      message, std::regex(R"(cause: #\d+ \[key="a" seq=1 action=ask_llm\] at partition 0 offset \d+: call done: call 0 llm SUCCEEDED 70; below the marker)")))
      << message;
}

// Strategy: the filters keep the lines of one attempt or one key and the
// run's skeleton; the event numbers stay those of the whole trace.
TEST(TraceViewTest, FiltersKeepTheirLinesAndTheirNumbers) {
  const Scenario scenario = Load("scenarios/negative/legacy_end_offset_marker_once.yaml");
  const RunReport report = RunScenario(scenario, RunOptions{});
  TraceFilter third;
  third.attempt = 3;
  const std::vector<std::string> lines = ReadableTrace(report, scenario, third);
  ASSERT_FALSE(lines.empty());
  size_t expected = 0;
  for (const std::string& line : report.trace.lines()) expected += line.find(" a3 ") != std::string::npos ? 1 : 0;
  EXPECT_EQ(lines.size(), expected);
  for (const std::string& line : lines) EXPECT_NE(line.find(" a3 "), std::string::npos) << line;
  EXPECT_NE(lines.front().rfind("#0 ", 0), 0u);  // numbered as in the whole trace

  TraceFilter other_key;
  other_key.key = "b";  // no input of key b: only the lines that name no key stay
  const std::vector<std::string> skeleton = ReadableTrace(report, scenario, other_key);
  EXPECT_LT(skeleton.size(), report.trace.size());
  const std::string text = Joined(skeleton);
  EXPECT_EQ(text.find("key="), std::string::npos) << text;
  EXPECT_NE(text.find(" restore "), std::string::npos) << text;
  TraceFilter key_a;
  key_a.key = "a";
  EXPECT_EQ(ReadableTrace(report, scenario, key_a).size(), report.trace.size());
}

// Strategy: after a rescale 2 -> 3, each subtask's filter keeps the lines
// of the keys it owns in that attempt and the restore tagged with its own
// number; together the three keep every line of the attempt.
TEST(TraceViewTest, SubtaskFilterFollowsKeyOwnershipPerAttempt) {
  const Scenario scenario = Load("scenarios/fast/rescale_2_to_3.yaml");
  const RunReport report = RunScenario(scenario, RunOptions{});
  ASSERT_TRUE(report.ok);
  std::set<std::string> union_of_subtasks;
  size_t attempt_lines = 0;
  for (const std::string& line : report.trace.lines()) attempt_lines += line.find(" a2 ") != std::string::npos ? 1 : 0;
  for (int32_t subtask = 0; subtask < 3; ++subtask) {
    TraceFilter filter;
    filter.attempt = 2;
    filter.subtask = subtask;
    for (const std::string& line : ReadableTrace(report, scenario, filter)) {
      union_of_subtasks.insert(line.substr(0, line.find(' ')));
      const std::smatch tag = [&] {
        std::smatch m;
        std::regex_search(line, m, std::regex(R"( subtask=(\d+) )"));
        return m;
      }();
      if (!tag.empty() && line.find(" restore ") != std::string::npos) {
        EXPECT_EQ(tag[1].str(), std::to_string(subtask)) << line;
      }
      std::smatch key;
      if (std::regex_search(line, key, std::regex(R"re(key="([^"]*)")re"))) {
        EXPECT_EQ(SubtaskOfKey(key[1].str(), scenario.max_parallelism, 3), subtask) << line;
      }
    }
  }
  EXPECT_EQ(union_of_subtasks.size(), attempt_lines);
}

}  // namespace
}  // namespace durasim
