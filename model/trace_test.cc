// Tests of the Trace (format 2): events kept as typed fields, hashed from
// them, rendered to text only when asked, and the text identical to what
// fmt writes for the same format and arguments.
#include "model/trace.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/identity.h"
#include "store/hash.h"
#include "store/recovery_marker.h"

namespace durasim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(TraceTest, SameEventsGiveTheSameHash) {
  // Strategy: two traces fed the same events have the same lines and hash,
  // and their text hash is FNV-1a over the lines, each followed by a
  // newline (format 1's hash).
  Trace a;
  Trace b;
  for (Trace* trace : {&a, &b}) {
    EXPECT_EQ(trace->Add(milliseconds(1), 1, "put.issued", "key=k seq=1"), 0u);
    EXPECT_EQ(trace->Add(SimTime(1500), 2, "log.append", "partition={} offset={}", 0, int64_t{7}), 1u);
  }
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(a.lines(), b.lines());
  EXPECT_EQ(a.size(), 2u);
  EXPECT_NE(a.hash(), kFnvOffsetBasis);
  EXPECT_EQ(a.TextHash(), Fnv1a(std::string(a.line(0)) + "\n" + std::string(a.line(1)) + "\n"));
  EXPECT_EQ(a.line(1), "     1.500ms a2 log.append         partition=0 offset=7");
}

TEST(TraceTest, TheHashIsOverFieldsAndNeedsNoText) {
  // Strategy: the hash of a trace whose lines were never rendered equals
  // that of a trace rendered after every event: rendering neither feeds
  // nor changes the hash.
  Trace unread;
  Trace read;
  for (int i = 0; i < 50; ++i) {
    unread.Add(SimTime(i), i % 3, "k", "i={} s={:?}", i, std::string(static_cast<size_t>(i), 'x'));
    read.Add(SimTime(i), i % 3, "k", "i={} s={:?}", i, std::string(static_cast<size_t>(i), 'x'));
    (void)read.line(static_cast<size_t>(i));
  }
  EXPECT_EQ(unread.hash(), read.hash());
  EXPECT_EQ(unread.lines(), read.lines());
}

TEST(TraceTest, LineFormatIsPinned) {
  // Strategy: the exact rendering of a line is pinned (it is what every
  // readable trace and format 1's hash show): time right-aligned to 12,
  // attempt, kind left-aligned to 18, detail.
  Trace trace;
  trace.Add(SimTime(1500), 2, "put.issued", "key=a");
  EXPECT_EQ(trace.line(0), "     1.500ms a2 put.issued         key=a");
}

TEST(TraceTest, LinesAreWhatFmtWritesForTheSameArguments) {
  // Strategy: a line rendered from the kept fields equals fmt's one-call
  // rendering "{:>12} a{} {:<18} {detail}" of the original arguments, for
  // every kind of argument a trace keeps (integers of each width and sign
  // at their limits, bool, strings quoted and plain, Quoted, state keys,
  // calls, markers), also where a field overflows its width.
  const std::string text = "a \"b\" \\ \x01 caf\xc3\xa9";
  StateKey key;
  key.key = "user_7";
  key.seq = 3;
  key.event_hash = 0x0123456789abcdefULL;
  key.action_hash = 0xfedcba9876543210ULL;
  CallIdentity call;
  call.state_key = key;
  call.call_index = 2;
  call.function = "llm";
  call.args_digest = 42;
  const RecoveryMarker marker = MarkerOf(TopicIdentity{}, {{0, 3}, {2, 0}});
  const int64_t i64_min = std::numeric_limits<int64_t>::min();
  const uint64_t u64_max = std::numeric_limits<uint64_t>::max();
  const int i32_min = std::numeric_limits<int>::min();
  const size_t size = 17;
  const char* literal = "plain";
  const std::string_view view = "view";

  Trace trace;
  std::vector<std::string> expected;
  auto head = [](SimTime time, int attempt, std::string_view kind) {
    return fmt::format("{:>12} a{} {:<18} ", FormatSimTime(time), attempt, kind);
  };
  trace.Add(SimTime(0), 0, "attempt.start", "fresh");
  expected.push_back(head(SimTime(0), 0, "attempt.start") + "fresh");
  trace.Add(SimTime(999), 1, "k", "");
  expected.push_back(head(SimTime(999), 1, "k"));
  trace.Add(SimTime(1000), 12, "a.kind.longer.than.eighteen", "{} {} {} {:016x} {} {}", i64_min, u64_max, i32_min,
            u64_max, size, true);
  expected.push_back(head(SimTime(1000), 12, "a.kind.longer.than.eighteen") +
                     fmt::format("{} {} {} {:016x} {} {}", i64_min, u64_max, i32_min, u64_max, size, true));
  trace.Add(SimTime(2000), 3, "exactly.eighteen.c", "{:?} {} {} {} {} {}", text, text, Quoted{text}, literal, view,
            false);
  expected.push_back(head(SimTime(2000), 3, "exactly.eighteen.c") +
                     fmt::format("{:?} {} {} {} {} {}", text, text, Quoted{text}, literal, view, false));
  trace.Add(SimTime(int64_t{1} << 62), 99999, "ids", "{} | {} | marker={}", StateKeyText{key}, CallText{call}, marker);
  expected.push_back(head(SimTime(int64_t{1} << 62), 99999, "ids") +
                     fmt::format("{} | {} | marker={}", StateKeyText{key}, CallText{call}, marker));
  ASSERT_EQ(trace.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(trace.line(i), expected[i]) << i;
  EXPECT_EQ(trace.line(4).substr(trace.line(4).find("ids")),
            "ids                key=\"user_7\" seq=3 event=0123456789abcdef action=fedcba9876543210 | key=\"user_7\" "
            "seq=3 event=0123456789abcdef action=fedcba9876543210 call=2 fn=llm args=000000000000002a | marker={0: 3, "
            "2: 0}");
  EXPECT_EQ(DescribeStateKey(key), fmt::format("{}", StateKeyText{key}));
  EXPECT_EQ(call.ToString(), fmt::format("{}", CallText{call}));
}

TEST(TraceTest, ArgumentsAreCopied) {
  // Strategy: a trace keeps its own copy of each argument: changing or
  // freeing the caller's string after Add changes neither line nor hash.
  Trace trace;
  std::string key = "before";
  {
    std::string temporary = "gone";
    trace.Add(SimTime(1), 1, "k", "key={} t={}", key, temporary);
  }
  const uint64_t hash = trace.hash();
  key = "after";
  EXPECT_EQ(trace.line(0), "     0.001ms a1 k                  key=before t=gone");
  EXPECT_EQ(trace.hash(), hash);
}

TEST(TraceTest, QuotedWritesWhatFmtsDebugFormatWrites) {
  // Strategy: Quoted copies plain strings itself and hands every other to
  // fmt's "{:?}"; on plain, borderline and escaped strings (quotes,
  // backslashes, control bytes, DEL, UTF-8, invalid UTF-8) both agree.
  const std::vector<std::string> texts = {"", "a", "key_1 x", " ~!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}", "\"", "\\",
                                          "a\"b", std::string("\0z", 2), "\x1f", "\x7f", "\t\n\r", "caf\xc3\xa9",
                                          "\xff\xfe", "\xe2\x80\xa8"};
  for (const std::string& text : texts) {
    EXPECT_EQ(fmt::format("{}", Quoted{text}), fmt::format("{:?}", text)) << text;
  }
}

TEST(TraceTest, ATraceWithoutTextCountsEventsAndKeepsNothing) {
  // Strategy: the reference run's trace keeps no events: it numbers events
  // as a kept trace does, its hash stays the empty trace's, and asking for
  // a line (or the text's hash) is a contract violation rather than an
  // empty string.
  Trace none(Trace::Text::kNone);
  Trace kept;
  for (Trace* trace : {&none, &kept}) {
    EXPECT_EQ(trace->Add(SimTime(1), 1, "put.issued", "key={}", 7), 0u);
    EXPECT_EQ(trace->Add(SimTime(2), 1, "put.ok", "key=7"), 1u);
  }
  EXPECT_EQ(none.size(), kept.size());
  EXPECT_EQ(none.hash(), kFnvOffsetBasis);
  EXPECT_NE(kept.hash(), kFnvOffsetBasis);
  EXPECT_DEATH((void)none.line(0), "a trace without text has no lines");
  EXPECT_DEATH((void)none.TextHash(), "a trace without text has no lines");
}

TEST(TraceTest, ADifferentEventChangesTheHash) {
  // Strategy: starting from the same base trace, changing one field of the
  // last event (time, attempt, kind, format, an argument's value or type)
  // or the order of two events changes the hash; so does moving bytes
  // between a kind and a string argument.
  auto build = [](SimTime time, int attempt, std::string_view kind, int64_t offset) {
    Trace trace;
    trace.Add(SimTime(0), 1, "attempt.start", "fresh");
    trace.Add(time, attempt, kind, "offset={}", offset);
    return trace.hash();
  };
  const uint64_t base = build(milliseconds(3), 1, "put.acked", 4);
  EXPECT_EQ(build(milliseconds(3), 1, "put.acked", 4), base);
  EXPECT_NE(build(SimTime(3001), 1, "put.acked", 4), base);
  EXPECT_NE(build(milliseconds(3), 2, "put.acked", 4), base);
  EXPECT_NE(build(milliseconds(3), 1, "put.failed", 4), base);
  EXPECT_NE(build(milliseconds(3), 1, "put.acked", 5), base);
  auto one = [](auto add) {
    Trace trace;
    add(trace);
    return trace.hash();
  };
  const uint64_t formatted = one([](Trace& t) { t.Add(SimTime(0), 1, "k", "offset={}", 4); });
  EXPECT_NE(one([](Trace& t) { t.Add(SimTime(0), 1, "k", "at={}", 4); }), formatted);
  EXPECT_NE(one([](Trace& t) { t.Add(SimTime(0), 1, "k", "offset={}", "4"); }), formatted);
  EXPECT_NE(one([](Trace& t) { t.Add(SimTime(0), 1, "ab", "{}", "c"); }),
            one([](Trace& t) { t.Add(SimTime(0), 1, "a", "{}", "bc"); }));
  // Kept as the same bytes, rendered differently: the types' tags tell them apart.
  EXPECT_NE(one([](Trace& t) { t.Add(SimTime(0), 1, "k", "{}", std::string("abc")); }),
            one([](Trace& t) { t.Add(SimTime(0), 1, "k", "{}", Quoted{"abc"}); }));
  EXPECT_NE(one([](Trace& t) { t.Add(SimTime(0), 1, "k", "{}", true); }),
            one([](Trace& t) { t.Add(SimTime(0), 1, "k", "{}", 1); }));

  Trace forward;
  forward.Add(SimTime(0), 1, "x", "1");
  forward.Add(SimTime(0), 1, "y", "2");
  Trace backward;
  backward.Add(SimTime(0), 1, "y", "2");
  backward.Add(SimTime(0), 1, "x", "1");
  EXPECT_NE(forward.hash(), backward.hash());
}

TEST(TraceTest, FirstDifferentLineComparesFieldsThenText) {
  // Strategy: equal traces have no different line; a trace that ends
  // first differs where it ends; events with other fields but the same
  // text (an integer and its digits as a string) are not a difference,
  // since lines are what is compared; other text is.
  Trace a;
  Trace b;
  a.Add(SimTime(0), 1, "k", "n={}", 4);
  b.Add(SimTime(0), 1, "k", "n={}", "4");
  EXPECT_EQ(FirstDifferentLine(a, b), std::nullopt);
  a.Add(SimTime(1), 1, "k", "x");
  EXPECT_EQ(FirstDifferentLine(a, b), 1u);
  b.Add(SimTime(1), 1, "k", "y");
  EXPECT_EQ(FirstDifferentLine(a, b), 1u);
}

TEST(TraceTest, FormatSimTimeRendersExactMicroseconds) {
  // Strategy: milliseconds with exactly three decimals, zero-padded, no
  // rounding, for values around the digit boundaries.
  EXPECT_EQ(FormatSimTime(SimTime(0)), "0.000ms");
  EXPECT_EQ(FormatSimTime(SimTime(1)), "0.001ms");
  EXPECT_EQ(FormatSimTime(SimTime(10)), "0.010ms");
  EXPECT_EQ(FormatSimTime(SimTime(999)), "0.999ms");
  EXPECT_EQ(FormatSimTime(SimTime(1000)), "1.000ms");
  EXPECT_EQ(FormatSimTime(SimTime(12345)), "12.345ms");
  EXPECT_EQ(FormatSimTime(SimTime(1000001)), "1000.001ms");
  EXPECT_EQ(FormatSimTime(seconds(3600)), "3600000.000ms");
}

TEST(TraceTest, TheHashOfEveryTailLengthIsPinned) {
  // Strategy: 64 events whose kinds (1..8 bytes) and text arguments (0..7
  // bytes) end their bytes in every tail length 0..7, the part the event
  // hash reads after its whole words. The value was computed by 48aac38's
  // trace, before the trace's bytes had a buffer of their own (TraceBytes)
  // and before the tail was copied inline.
  // Invariant: the hash is that value; a change to it is a trace-format
  // change (docs/architecture.md, "The trace and what a run costs").
  Trace trace;
  const std::string kinds = "abcdefgh";
  for (size_t i = 0; i < 8; ++i) {
    for (size_t t = 0; t < 8; ++t) {
      trace.Add(SimTime(static_cast<int64_t>(i * 8 + t)), static_cast<int>(t % 3),
                std::string_view(kinds).substr(0, i + 1), "n={} text={}", static_cast<int64_t>(i) - 3,
                std::string(t, 'x'));
    }
  }
  EXPECT_EQ(trace.size(), 64u);
  EXPECT_EQ(trace.hash(), 0xd452f8d11d65c25eULL);
}

}  // namespace
}  // namespace durasim
