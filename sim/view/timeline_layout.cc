// The timeline's layout (sim/view/timeline_layout.h).
#include "sim/view/timeline_layout.h"

#include <algorithm>
#include <set>

#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

constexpr int kLeft = 190;          // lane and strip names
constexpr int kTop = 64;            // title and subtitle above
constexpr int kColumn = 54;         // one event
constexpr int kLane = 66;           // one attempt (subtask)
constexpr int kOffsetWide = 66;     // one record, named
constexpr int kOffsetNarrow = 16;   // one record in a long log, coloured only
constexpr int kNarrowAbove = 48;    // records per partition above which boxes are narrow
constexpr int kStrip = 34;          // a partition's record boxes
constexpr int kMarkerRow = 15;      // a checkpoint's name above the strip
constexpr int kRestoreRow = 16;     // a restore's read range below it
constexpr int kTextLine = 17;
constexpr size_t kWrapChars = 150;

Shape Rect(int x, int y, int w, int h, std::string cls, std::string id = "", std::string title = "") {
  return Shape{Shape::Kind::kRect, {x, y, w, h}, "", "", std::move(cls), std::move(id), std::move(title)};
}
Shape LineShape(int x1, int y1, int x2, int y2, std::string cls, std::string id = "", std::string title = "") {
  return Shape{Shape::Kind::kLine, {x1, y1, x2, y2}, "", "", std::move(cls), std::move(id), std::move(title)};
}
Shape Text(int x, int y, std::string text, std::string cls, std::string anchor = "start", std::string id = "") {
  return Shape{Shape::Kind::kText, {x, y}, std::move(text), std::move(anchor), std::move(cls), std::move(id), ""};
}

// Lines of at most `width` characters, broken at spaces.
std::vector<std::string> Wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::string Circled(size_t n) { return fmt::format("[{}]", n); }

class Layouter {
 public:
  explicit Layouter(const RunTimeline& timeline) : t_(timeline) {}

  TimelineLayout Run() {
    Index();
    Title();
    Lanes();
    Strips();
    Links();
    Violations();
    Legend();
    out_.width = std::max({width_, kLeft + static_cast<int>(t_.events.size()) * kColumn + 40, 960});
    // One lane per (attempt, subtask): Rows and Links find lanes by it.
    DURASIM_CHECK_EQ(lane_row_.size(), t_.lanes.size());
    out_.height = y_ + 10;
    return std::move(out_);
  }

 private:
  void Index() {
    for (size_t i = 0; i < t_.lanes.size(); ++i) lane_row_[{t_.lanes[i].attempt, t_.lanes[i].subtask}] = i;
    int64_t offsets = 0;
    for (const TimelineRecord& r : t_.records) {
      record_at_[r.trace_index] = &r;
      offsets = std::max(offsets, r.record.offset + 1);
      per_partition_[r.record.partition] += 1;
    }
    for (const TimelineMarker& m : t_.markers) {
      for (const auto& [p, o] : m.offsets) offsets = std::max(offsets, o + 1);
    }
    for (const TimelineRestore& r : t_.restores) {
      for (const auto& [p, range] : r.ranges) offsets = std::max(offsets, range.second + 1);
    }
    offsets_ = offsets;
    size_t most = 0;
    for (const auto& [p, n] : per_partition_) most = std::max(most, n);
    offset_w_ = most > static_cast<size_t>(kNarrowAbove) || offsets_ > kNarrowAbove ? kOffsetNarrow : kOffsetWide;
    for (size_t i = 0; i < t_.events.size(); ++i) column_of_[t_.events[i].trace_index] = static_cast<int>(i);
    for (size_t v = 0; v < t_.violations.size(); ++v) {
      for (size_t index : t_.violations[v].evidence) flagged_[index].insert(v + 1);
    }
    FindLinks();
  }

  void Title() {
    out_.shapes.push_back(Text(12, 24, t_.title, "title"));
    out_.shapes.push_back(Text(12, 44, t_.subtitle, "subtitle"));
  }

  // The centre of event `column`'s column.
  int ColumnX(int column) const {
    DURASIM_CHECK(column >= 0 && static_cast<size_t>(column) < t_.events.size());
    return kLeft + column * kColumn + kColumn / 2;
  }
  // The top of lane `row`; the row past the last is the lanes' bottom.
  int LaneY(size_t row) const {
    DURASIM_CHECK_LE(row, t_.lanes.size());
    return kTop + static_cast<int>(row) * kLane;
  }

  void Lanes() {
    // Each lane spans its attempt's columns.
    std::map<int, std::pair<int, int>> span;  // attempt -> [first, last] column
    for (size_t i = 0; i < t_.events.size(); ++i) {
      auto [it, inserted] = span.emplace(t_.events[i].attempt, std::make_pair(static_cast<int>(i), static_cast<int>(i)));
      if (!inserted) it->second.second = static_cast<int>(i);
    }
    for (size_t row = 0; row < t_.lanes.size(); ++row) {
      const TimelineLane& lane = t_.lanes[row];
      const int y = LaneY(row);
      auto s = span.find(lane.attempt);
      const int first = s != span.end() ? s->second.first : 0;
      const int last = s != span.end() ? s->second.second : 0;
      DURASIM_CHECK_LE(first, last);  // a lane at least one column wide
      out_.shapes.push_back(Rect(kLeft + first * kColumn, y + 4, (last - first + 1) * kColumn, kLane - 8,
                                 lane.attempt % 2 == 1 ? "lane odd" : "lane even",
                                 fmt::format("lane-a{}-s{}", lane.attempt, lane.subtask)));
      const std::string name = lane.subtasks > 1 ? fmt::format("attempt {} · subtask {}", lane.attempt, lane.subtask)
                                                 : fmt::format("attempt {}", lane.attempt);
      out_.shapes.push_back(Text(10, y + 26, name, "lane-name"));
      out_.shapes.push_back(Text(10, y + 42, lane.start, "lane-note"));
      if (!lane.end.empty()) out_.shapes.push_back(Text(10, y + 56, "ended: " + lane.end, "lane-note"));
    }
    lanes_bottom_ = LaneY(t_.lanes.size());
    for (size_t i = 0; i < t_.events.size(); ++i) Event(t_.events[i], static_cast<int>(i));
    y_ = lanes_bottom_ + 16;
  }

  // The rows an event is drawn in: its lane, or every lane of its attempt.
  std::pair<int, int> Rows(const TimelineEvent& e) const {
    auto it = lane_row_.find({e.attempt, e.subtask});
    const int row = it != lane_row_.end() ? static_cast<int>(it->second) : 0;
    if (!e.all_subtasks) return {row, row};
    int first = row, last = row;
    for (size_t r = 0; r < t_.lanes.size(); ++r) {
      if (t_.lanes[r].attempt != e.attempt) continue;
      first = std::min(first, static_cast<int>(r));
      last = std::max(last, static_cast<int>(r));
    }
    return {first, last};
  }

  void Event(const TimelineEvent& e, int column) {
    const int x = ColumnX(column);
    const auto [first, last] = Rows(e);
    DURASIM_CHECK(0 <= first && first <= last);
    const int y = LaneY(static_cast<size_t>(first)) + 20;  // glyph centre
    const std::string id = fmt::format("event-{}", e.trace_index);
    switch (e.kind) {
      case TimelineEvent::Kind::kRecord:
        out_.shapes.push_back(Rect(x - 7, y - 7, 14, 14, fmt::format("glyph record {}", RecordKindName(e.record_kind)),
                                   fmt::format("put-p{}-{}", e.partition, e.offset), e.title));
        break;
      case TimelineEvent::Kind::kCall:
        out_.shapes.push_back(Shape{Shape::Kind::kCircle, {x, y, e.bad ? 9 : 7}, "", "",
                                    e.bad ? "glyph call repeated" : "glyph call",
                                    fmt::format("call-{}", e.trace_index), e.title});
        break;
      case TimelineEvent::Kind::kReused:
        out_.shapes.push_back(Shape{Shape::Kind::kCircle, {x, y, 7}, "", "", "glyph reused", id, e.title});
        break;
      case TimelineEvent::Kind::kCheckpoint:
        out_.shapes.push_back(LineShape(x, LaneY(static_cast<size_t>(first)) + 6, x,
                                        LaneY(static_cast<size_t>(last)) + kLane - 6, "cp-line"));
        out_.shapes.push_back(Shape{Shape::Kind::kPolygon, {x, y - 8, x + 8, y, x, y + 8, x - 8, y}, "", "",
                                    "glyph checkpoint", id, e.title});
        break;
      case TimelineEvent::Kind::kRestore:
        out_.shapes.push_back(Rect(x - 12, y - 7, 24, 14, e.bad ? "glyph restore rejected" : "glyph restore", id, e.title));
        break;
      case TimelineEvent::Kind::kFault:
        out_.shapes.push_back(Shape{Shape::Kind::kPolygon, {x, y - 8, x + 8, y + 7, x - 8, y + 7}, "", "",
                                    "glyph fault", id, e.title});
        break;
      case TimelineEvent::Kind::kCrash:
      case TimelineEvent::Kind::kFailed: {
        const int bottom = LaneY(static_cast<size_t>(last)) + kLane - 6;
        out_.shapes.push_back(LineShape(x, LaneY(static_cast<size_t>(first)) + 6, x, bottom, "crash-line"));
        out_.shapes.push_back(LineShape(x - 7, y - 7, x + 7, y + 7, "glyph crash", id, e.title));
        out_.shapes.push_back(LineShape(x - 7, y + 7, x + 7, y - 7, "glyph crash"));
        break;
      }
      case TimelineEvent::Kind::kOutput:
        out_.shapes.push_back(Rect(x - 6, y - 6, 12, 12, "glyph output", id, e.title));
        break;
      case TimelineEvent::Kind::kLog:
        out_.shapes.push_back(Rect(x - 8, y - 5, 16, 10, "glyph logevent", id, e.title));
        break;
    }
    int line_y = y + 22;
    size_t start = 0;
    while (start <= e.label.size()) {
      size_t end = e.label.find('\n', start);
      if (end == std::string::npos) end = e.label.size();
      out_.shapes.push_back(Text(x, line_y, e.label.substr(start, end - start), e.bad ? "event-label bad" : "event-label",
                                 "middle"));
      line_y += 12;
      start = end + 1;
    }
    if (auto f = flagged_.find(e.trace_index); f != flagged_.end()) {
      std::string names;
      for (size_t v : f->second) names += Circled(v);
      out_.shapes.push_back(Text(x, y - 11, names, "violation-tag", "middle"));
    }
  }

  int OffsetX(int64_t offset) const {
    DURASIM_CHECK_GE(offset, 0);  // log offsets and marker offsets start at 0: no box left of the strip
    return kLeft + static_cast<int>(offset) * offset_w_;
  }

  void Strips() {
    out_.shapes.push_back(Text(10, y_ + 14, fmt::format("the log, by partition and offset{}", offset_w_ == kOffsetNarrow
                                                                                                  ? " (hover a record)"
                                                                                                  : ""),
                               "section"));
    y_ += 24;
    width_ = std::max(width_, OffsetX(offsets_) + 40);
    for (int32_t p = 0; p < t_.partitions; ++p) Strip(p);
  }

  static std::string Who(const TimelineRestore& r) {
    return r.subtasks > 1 ? fmt::format("attempt {} subtask {}", r.attempt, r.subtask) : fmt::format("attempt {}", r.attempt);
  }
  static std::string WhoId(const TimelineRestore& r) {
    return r.subtask == 0 ? fmt::format("a{}", r.attempt) : fmt::format("a{}-s{}", r.attempt, r.subtask);
  }

  // Under partition `p`'s strip, from `y` down: each restore's read range
  // there, or that it did not read `p` at all. Returns the y below them.
  int RestoreRanges(int32_t p, int y) {
    for (const TimelineRestore& r : t_.restores) {
      auto range = r.ranges.find(p);
      if (range == r.ranges.end()) {
        // A partition that held records when the restore ran and that it
        // did not read at all.
        const bool held = std::any_of(t_.records.begin(), t_.records.end(), [&](const TimelineRecord& record) {
          return record.record.partition == p && record.trace_index < r.trace_index;
        });
        if (!held) continue;
        out_.shapes.push_back(Text(OffsetX(0), y + 12,
                                   fmt::format("{} restores {}: does not read partition {} at all", Who(r),
                                               r.checkpoint, p),
                                   "range-label bad", "start", fmt::format("unread-{}-p{}", WhoId(r), p)));
        y += kRestoreRow;
        continue;
      }
      const auto [from, to] = range->second;
      DURASIM_CHECK_LE(from, to);  // the recorder ends a range no earlier than its marker
      const int x1 = OffsetX(from);
      const int x2 = std::max(OffsetX(to), x1 + 3);
      out_.shapes.push_back(Rect(x1, y + 3, x2 - x1, 8, r.rejected ? "read-range rejected" : "read-range",
                                 fmt::format("restore-{}-p{}", WhoId(r), p), r.title));
      out_.shapes.push_back(Text(x2 + 6, y + 12,
                                 fmt::format("{} restores {}: reads {}..{} ({} record{}){}", Who(r),
                                             r.checkpoint, from, to, to - from, to - from == 1 ? "" : "s",
                                             r.rejected ? ", rejected" : ""),
                                 r.rejected ? "range-label bad" : "range-label"));
      y += kRestoreRow;
    }
    return y;
  }

  void Strip(int32_t p) {
    // Checkpoint names above the strip, one row per marker that falls here.
    std::vector<const TimelineMarker*> markers;
    for (const TimelineMarker& m : t_.markers) {
      if (m.offsets.count(p) != 0) markers.push_back(&m);
    }
    const int names_top = y_;
    const int strip_y = names_top + static_cast<int>(markers.size()) * kMarkerRow + 4;
    DURASIM_CHECK_GE(names_top, lanes_bottom_);  // the log is drawn below the lanes
    out_.shapes.push_back(Text(10, strip_y + 22, fmt::format("partition {}", p), "lane-name"));
    for (int64_t o = 0; o < offsets_; ++o) {
      out_.shapes.push_back(Rect(OffsetX(o), strip_y, offset_w_, kStrip, "slot"));
    }
    std::map<int64_t, const TimelineRecord*> latest;  // a re-created topic reuses offsets: the last one is drawn
    for (const TimelineRecord& r : t_.records) {
      if (r.record.partition == p) latest[r.record.offset] = &r;
    }
    for (const auto& [offset, r] : latest) {
      const int x = OffsetX(offset);
      std::string cls = fmt::format("record {}", RecordKindName(r->record.kind));
      if (!r->in_final_log) cls += " removed";
      if (saved_.count(r->trace_index) != 0) cls += " saved-not-reused";
      out_.shapes.push_back(Rect(x + 1, strip_y + 1, offset_w_ - 2, kStrip - 2, cls, fmt::format("record-p{}-{}", p, offset),
                                 fmt::format("p{}@{} {} (attempt {}): {}", p, offset, r->record.key, r->attempt,
                                             r->description)));
      if (offset_w_ == kOffsetWide) {
        out_.shapes.push_back(Text(x + offset_w_ / 2, strip_y + 14, RecordKindName(r->record.kind), "record-label", "middle"));
        out_.shapes.push_back(Text(x + offset_w_ / 2, strip_y + 27, fmt::format("@{} a{}", offset, r->attempt),
                                   "record-sub", "middle"));
      }
      record_box_[r->trace_index] = {x + offset_w_ / 2, strip_y};
    }
    const int strip_bottom = strip_y + kStrip;
    for (size_t i = 0; i < markers.size(); ++i) {
      const TimelineMarker& m = *markers[i];
      const int x = OffsetX(m.offsets.at(p));
      const int name_y = names_top + static_cast<int>(i) * kMarkerRow + 12;
      out_.shapes.push_back(LineShape(x, name_y + 2, x, strip_bottom + 4, "marker",
                                      fmt::format("marker-{}-p{}", m.checkpoint, p),
                                      fmt::format("{} (attempt {}, {}): restores read p{} from offset {}", m.checkpoint,
                                                  m.attempt, m.phase, p, m.offsets.at(p))));
      out_.shapes.push_back(Text(x + 4, name_y, fmt::format("{} marker @{} ({})", m.checkpoint, m.offsets.at(p), m.phase),
                                 "marker-label"));
    }
    const int y = RestoreRanges(p, strip_bottom + 6);
    y_ = y + 14;
  }

  // A repeated call and the saved record it should have reused: the
  // evidence of one violation that names both.
  void FindLinks() {
    for (const TimelineViolation& v : t_.violations) {
      const TimelineRecord* record = nullptr;
      const TimelineEvent* call = nullptr;
      for (size_t index : v.evidence) {
        if (auto r = record_at_.find(index); r != record_at_.end()) record = r->second;
        auto c = column_of_.find(index);
        if (c != column_of_.end() && t_.events[static_cast<size_t>(c->second)].kind == TimelineEvent::Kind::kCall) {
          call = &t_.events[static_cast<size_t>(c->second)];
        }
      }
      if (record == nullptr || call == nullptr) continue;
      links_.emplace_back(record, call);
      saved_.insert(record->trace_index);
    }
  }

  void Links() {
    size_t n = 0;
    for (const auto& [record, call] : links_) {
      auto box = record_box_.find(record->trace_index);
      if (box == record_box_.end()) continue;
      ++n;
      const int x1 = ColumnX(column_of_.at(call->trace_index));
      auto row = lane_row_.find({call->attempt, call->subtask});
      const int y1 = LaneY(row != lane_row_.end() ? row->second : 0) + 29;
      const auto [x2, y2] = box->second;
      DURASIM_CHECK_LT(y1, y2);  // the link runs down from the call's lane to the record's strip
      out_.shapes.push_back(Shape{Shape::Kind::kPath, {x1, y1, x1, (y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2}, "", "",
                                  "link", fmt::format("link-{}", n),
                                  fmt::format("call #{} should have reused the result saved at p{}@{}", call->trace_index,
                                              record->record.partition, record->record.offset)});
      // Beside the link where it leaves the call, clear of the strips.
      out_.shapes.push_back(Text(x2 < x1 ? x1 - 12 : x1 + 12, y1 + 34 + static_cast<int>(n - 1) * 15,
                                 fmt::format("{} the call ran again: the {} saved at p{}@{} was not reused", Circled(n),
                                             RecordKindName(record->record.kind), record->record.partition,
                                             record->record.offset),
                                 "link-label", x2 < x1 ? "end" : "start", fmt::format("link-label-{}", n)));
    }
  }

  void Violations() {
    if (t_.violations.empty()) return;
    out_.shapes.push_back(Text(10, y_ + 12, "violations", "section"));
    y_ += 28;
    for (size_t v = 0; v < t_.violations.size(); ++v) {
      const TimelineViolation& violation = t_.violations[v];
      const std::vector<std::string> lines = Wrap(violation.message, kWrapChars);
      for (size_t i = 0; i < lines.size(); ++i) {
        const std::string text = i == 0 ? fmt::format("{} {}: {}", Circled(v + 1), violation.invariant, lines[i])
                                        : "      " + lines[i];
        out_.shapes.push_back(Text(10, y_, text, "violation", "start", i == 0 ? fmt::format("violation-{}", v + 1) : ""));
        width_ = std::max(width_, 10 + static_cast<int>(text.size()) * 7 + 20);
        y_ += kTextLine;
      }
    }
    y_ += 6;
  }

  void Legend() {
    int x = 10;
    const int y = y_ + 6;
    for (RecordKind kind : {RecordKind::kStart, RecordKind::kPending, RecordKind::kResult, RecordKind::kComplete,
                            RecordKind::kTombstone, RecordKind::kCleanup, RecordKind::kCorrupt, RecordKind::kForeign}) {
      out_.shapes.push_back(Rect(x, y, 14, 14, fmt::format("record {}", RecordKindName(kind))));
      out_.shapes.push_back(Text(x + 18, y + 11, RecordKindName(kind), "legend"));
      x += 92;
    }
    out_.shapes.push_back(Shape{Shape::Kind::kCircle, {x + 7, y + 7, 7}, "", "", "glyph call", "", ""});
    out_.shapes.push_back(Text(x + 18, y + 11, "supplier call", "legend"));
    x += 110;
    out_.shapes.push_back(Shape{Shape::Kind::kCircle, {x + 7, y + 7, 7}, "", "", "glyph reused", "", ""});
    out_.shapes.push_back(Text(x + 18, y + 11, "result reused", "legend"));
    x += 110;
    out_.shapes.push_back(Shape{Shape::Kind::kPolygon, {x + 7, y - 1, x + 15, y + 7, x + 7, y + 15, x - 1, y + 7}, "", "",
                                "glyph checkpoint", "", ""});
    out_.shapes.push_back(Text(x + 20, y + 11, "checkpoint", "legend"));
    x += 100;
    out_.shapes.push_back(Shape{Shape::Kind::kPolygon, {x + 7, y - 1, x + 15, y + 14, x - 1, y + 14}, "", "", "glyph fault", "", ""});
    out_.shapes.push_back(Text(x + 20, y + 11, "fault fired", "legend"));
    x += 100;
    out_.shapes.push_back(LineShape(x, y, x + 14, y + 14, "glyph crash"));
    out_.shapes.push_back(LineShape(x, y + 14, x + 14, y, "glyph crash"));
    out_.shapes.push_back(Text(x + 20, y + 11, "crash / failover", "legend"));
    width_ = std::max(width_, x + 140);
    y_ = y + 24;
  }

  const RunTimeline& t_;
  TimelineLayout out_;
  std::map<std::pair<int, int>, size_t> lane_row_;
  std::map<size_t, const TimelineRecord*> record_at_;  // by append line
  std::map<int32_t, size_t> per_partition_;
  std::map<size_t, int> column_of_;                     // event by trace line
  std::map<size_t, std::set<size_t>> flagged_;         // trace line -> violations citing it
  std::vector<std::pair<const TimelineRecord*, const TimelineEvent*>> links_;
  std::set<size_t> saved_;                              // append lines of saved records a call should have reused
  std::map<size_t, std::pair<int, int>> record_box_;  // append line -> top centre of its box
  int64_t offsets_ = 0;
  int offset_w_ = kOffsetWide;
  int lanes_bottom_ = 0;
  int width_ = 0;
  int y_ = 0;
};

}  // namespace

TimelineLayout LayOutTimeline(const RunTimeline& timeline) { return Layouter(timeline).Run(); }

}  // namespace durasim
