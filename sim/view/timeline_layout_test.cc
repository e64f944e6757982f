// Strategy: the layout as pure data: the #1158 picture built by hand (a
// result record below the second checkpoint's marker, a second call that a
// once violation cites with that record) must put the marker to the right of
// the record, link the call to it, name the violation in words, and lay out
// the same shapes every time; the log decoder names every record kind.
#include "sim/view/timeline_layout.h"

#include <gtest/gtest.h>

#include "sim/view/timeline_svg.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

const Shape* Find(const TimelineLayout& layout, const std::string& id) {
  for (const Shape& shape : layout.shapes) {
    if (shape.id == id) return &shape;
  }
  return nullptr;
}

TimelineRecord Record(int64_t offset, RecordKind kind, int attempt, size_t trace_index) {
  TimelineRecord r;
  r.record.partition = 0;
  r.record.offset = offset;
  r.record.kind = kind;
  r.record.key = "a_1_x_y";
  r.attempt = attempt;
  r.trace_index = trace_index;
  return r;
}

TimelineEvent Event(TimelineEvent::Kind kind, size_t trace_index, int attempt, std::string label) {
  TimelineEvent e;
  e.kind = kind;
  e.trace_index = trace_index;
  e.attempt = attempt;
  e.label = std::move(label);
  return e;
}

RunTimeline LegacyPicture() {
  RunTimeline t;
  t.title = "legacy_end_offset_marker_once";
  t.lanes = {{1, 0, 1, "fresh start", "crashed"}, {2, 0, 1, "restore cp1", "crashed"}, {3, 0, 1, "restore cp2", "finished"}};
  t.records = {Record(0, RecordKind::kStart, 1, 10), Record(1, RecordKind::kPending, 1, 12),
               Record(2, RecordKind::kResult, 1, 15), Record(3, RecordKind::kStart, 3, 40)};
  t.events = {Event(TimelineEvent::Kind::kRecord, 15, 1, "result\np0@2"),
              Event(TimelineEvent::Kind::kCheckpoint, 25, 2, "cp2"),
              Event(TimelineEvent::Kind::kCall, 44, 3, "llm\nAGAIN")};
  t.events[2].bad = true;
  t.markers = {{"cp1", 1, {{0, 0}}, "completed"}, {"cp2", 2, {{0, 3}}, "completed"}};
  t.restores = {{3, 0, 1, 42, "cp2", false, {{0, {3, 3}}}, ""}};
  t.violations = {{"once", "supplier llm ran again for call [...] although its result was already persisted", {15, 44}}};
  return t;
}

TEST(TimelineLayoutTest, TheMarkerLiesRightOfTheSavedResultAndTheRepeatedCallLinksToIt) {
  const TimelineLayout layout = LayOutTimeline(LegacyPicture());
  const Shape* record = Find(layout, "record-p0-2");
  const Shape* marker = Find(layout, "marker-cp2-p0");
  const Shape* call = Find(layout, "call-44");
  const Shape* link = Find(layout, "link-1");
  ASSERT_NE(record, nullptr);
  ASSERT_NE(marker, nullptr);
  ASSERT_NE(call, nullptr);
  ASSERT_NE(link, nullptr);
  EXPECT_NE(record->cls.find("result"), std::string::npos);
  EXPECT_NE(record->cls.find("saved-not-reused"), std::string::npos);
  EXPECT_GE(marker->at[0], record->at[0] + record->at[2]);  // x1 of the marker past the record's right edge
  EXPECT_NE(call->cls.find("repeated"), std::string::npos);
  // The link runs from the call down to the record's box.
  EXPECT_EQ(link->at[0], call->at[0]);
  EXPECT_EQ(link->at[6], record->at[0] + record->at[2] / 2);
  EXPECT_EQ(link->at[7], record->at[1] - 1);
  const Shape* violation = Find(layout, "violation-1");
  ASSERT_NE(violation, nullptr);
  EXPECT_NE(violation->text.find("once: supplier llm ran again"), std::string::npos);
  // cp1's marker sits at offset 0, left of every record.
  EXPECT_LE(Find(layout, "marker-cp1-p0")->at[0], Find(layout, "record-p0-0")->at[0]);
  // The third attempt's restore read nothing: its bar starts at the marker.
  EXPECT_EQ(Find(layout, "restore-a3-p0")->at[0], marker->at[0]);
}

TEST(TimelineLayoutTest, TheSameTimelineGivesTheSameBytes) {
  const std::string a = RenderTimelineSvg(LayOutTimeline(LegacyPicture()));
  const std::string b = RenderTimelineSvg(LayOutTimeline(LegacyPicture()));
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  const std::string html = RenderTimelineHtml(LayOutTimeline(LegacyPicture()), "t");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find(a), std::string::npos);  // the SVG inline
}

TEST(TimelineLayoutTest, TextXmlCannotHoldIsReplaced) {
  RunTimeline t = LegacyPicture();
  t.title = std::string("key \x01 <&> \xff");
  const std::string svg = RenderTimelineSvg(LayOutTimeline(t));
  EXPECT_NE(svg.find("key ? &lt;&amp;&gt; ?"), std::string::npos);
}

TEST(LogDumpTest, EveryKindIsNamed) {
  const StateKey key{"a_b", 2, 0x11, 0x22};
  ActionState start;
  ActionState pending;
  pending.call_results.push_back(CallResult{"llm", 7, CallStatus::kPending, 0, ""});
  ActionState result;
  result.call_results.push_back(CallResult{"llm", 7, CallStatus::kSucceeded, 70, ""});
  result.memory_updates.push_back(MemoryUpdate{"m", 3});
  ActionState complete;
  complete.completed = true;
  complete.emitted_events.push_back(EmittedEvent{kOutputEventType, 70});
  const std::string record_key = EncodeRecordKey(key);
  auto decode = [&](std::string k, std::string v) { return DecodeLogRecord(LogRecord{0, 5, std::move(k), std::move(v)}); };
  EXPECT_EQ(decode(record_key, EncodeStateValue(key, start)).kind, RecordKind::kStart);
  EXPECT_EQ(decode(record_key, EncodeStateValue(key, pending)).kind, RecordKind::kPending);
  const DecodedRecord r = decode(record_key, EncodeStateValue(key, result));
  EXPECT_EQ(r.kind, RecordKind::kResult);
  EXPECT_EQ(DescribeRecord(r, {{0x22, "ask"}}), "key=\"a_b\" seq=2 action=ask: calls [#0 llm SUCCEEDED result=70]; memory [m=3]");
  const DecodedRecord c = decode(record_key, EncodeStateValue(key, complete));
  EXPECT_EQ(c.kind, RecordKind::kComplete);
  EXPECT_EQ(DescribeRecord(c, {}), "key=\"a_b\" seq=2 action=0000000000000022: emits [output 70]; completed");
  EXPECT_EQ(decode(record_key, "").kind, RecordKind::kTombstone);
  EXPECT_EQ(decode(EncodeCleanupKey("a"), "4").kind, RecordKind::kCleanup);
  const DecodedRecord bad = decode(record_key, std::string(40, '\x7b'));
  EXPECT_EQ(bad.kind, RecordKind::kCorrupt);
  EXPECT_NE(bad.problem.find("7b7b7b"), std::string::npos);
  EXPECT_NE(bad.problem.find("... (40 bytes)"), std::string::npos);
  EXPECT_EQ(decode("not a state key", "x").kind, RecordKind::kForeign);
}

}  // namespace
}  // namespace durasim
