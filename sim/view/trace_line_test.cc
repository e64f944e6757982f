// Strategy: lines as model/trace.cc writes them, cut into the fields both
// the readable trace and the timeline read; lines short of a kind come
// back whole.
#include "sim/view/trace_line.h"

#include <gtest/gtest.h>

#include "model/trace.h"

namespace durasim {
namespace {

TEST(TraceLine, CutsAWrittenLineIntoItsFields) {
  const TraceLineParts parts =
      ParseTraceLine("    32.000ms a3 log.append         partition=1 offset=9 key=\"a b\"");
  EXPECT_EQ(parts.head, "    32.000ms a3 log.append         ");
  EXPECT_EQ(parts.attempt, 3);
  EXPECT_EQ(parts.kind, "log.append");
  EXPECT_EQ(parts.detail, "partition=1 offset=9 key=\"a b\"");
}

TEST(TraceLine, AKindLongerThanItsPaddingAndNoDetail) {
  const TraceLineParts parts = ParseTraceLine("1.000ms a12 checkpoint.completed.late");
  EXPECT_EQ(parts.head, "1.000ms a12 checkpoint.completed.late");
  EXPECT_EQ(parts.attempt, 12);
  EXPECT_EQ(parts.kind, "checkpoint.completed.late");
  EXPECT_EQ(parts.detail, "");
}

TEST(TraceLine, AnAttemptFieldWithoutANumberIsAttemptZero) {
  const TraceLineParts parts = ParseTraceLine("0.000ms -- run.start x=1");
  EXPECT_EQ(parts.attempt, 0);
  EXPECT_EQ(parts.kind, "run.start");
  EXPECT_EQ(parts.detail, "x=1");
}

TEST(TraceLine, ALineShortOfAKindComesBackWhole) {
  for (const char* text : {"", "   ", "0.000ms", "0.000ms a1", "0.000ms a1   "}) {
    const TraceLineParts parts = ParseTraceLine(text);
    EXPECT_EQ(parts.head, text);
    EXPECT_EQ(parts.attempt, 0) << text;
    EXPECT_EQ(parts.kind, "") << text;
    EXPECT_EQ(parts.detail, "") << text;
  }
}

TEST(TraceLine, ReadsBackWhatTheTraceWrote) {
  Trace trace;
  trace.Add(SimTime(7000), 2, "put.issued", "key={:?} seq={}", std::string("k 1"), 4);
  const TraceLineParts parts = ParseTraceLine(trace.line(0));
  EXPECT_EQ(parts.attempt, 2);
  EXPECT_EQ(parts.kind, "put.issued");
  EXPECT_EQ(parts.detail, "key=\"k 1\" seq=4");
}

}  // namespace
}  // namespace durasim
