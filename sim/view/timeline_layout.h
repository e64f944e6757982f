// The timeline of a run, laid out: what a run did (RunTimeline, gathered by
// sim/view/timeline_recorder.h) -> positioned shapes (TimelineLayout), which
// sim/view/timeline_svg.h writes as SVG. Pure data in, pure data out.
//
// The picture, top to bottom: one lane per attempt (one per subtask when
// the attempt runs several), its events left to right in trace order (each
// event a column: records written, supplier calls, reused results,
// checkpoints, restores, faults, crashes, outputs, log events); below, the
// log, one strip per partition with a box per record by offset, coloured and
// named by kind; each checkpoint's marker a line across its partition's
// strip; each restore's read range a bar under it; a repeated supplier call
// linked to the saved record it should have reused; the violations in words.
//
// Every shape that a test or a reader looks for has a stable id:
// `record-p<P>-<O>`, `marker-<checkpoint>-p<P>`, `restore-a<A>-p<P>` (subtask 0; else
// `restore-a<A>-s<S>-p<P>`),
// `call-<trace index>`, `link-<n>`, `violation-<n>`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/run/log_dump.h"

namespace durasim {

struct TimelineEvent {
  enum class Kind { kRecord, kCall, kReused, kCheckpoint, kRestore, kFault, kCrash, kFailed, kOutput, kLog };
  Kind kind = Kind::kRecord;
  size_t trace_index = 0;  // its line in the trace: the event's order
  int attempt = 1;
  int subtask = 0;
  bool all_subtasks = false;  // drawn across every lane of the attempt (a checkpoint, a crash)
  std::string label;          // up to two short lines, '\n' between
  std::string title;          // the trace line: shown on hover
  bool bad = false;           // drawn in red: a rejected restore, a repeated call
  int32_t partition = -1;     // kRecord
  int64_t offset = -1;        // kRecord
  RecordKind record_kind = RecordKind::kStart;
};

struct TimelineRecord {
  DecodedRecord record;
  int attempt = 0;         // the attempt that wrote it
  size_t trace_index = 0;  // its append line
  bool in_final_log = true;  // false: retention, deletion or compaction removed it
  std::string description;   // DescribeRecord: shown on hover
};

struct TimelineMarker {
  std::string checkpoint;
  int attempt = 0;  // that took it
  std::map<int32_t, int64_t> offsets;  // the minimum over the union list: where a restore of it reads from
  std::string phase;  // taken, completed, aborted, failed
};

struct TimelineRestore {
  int attempt = 0;
  int subtask = 0;         // each subtask rebuilds on its own
  int subtasks = 1;
  size_t trace_index = 0;  // its restore line
  std::string checkpoint;
  bool rejected = false;
  std::map<int32_t, std::pair<int64_t, int64_t>> ranges;  // partition -> [from, to) read, from the marker it rebuilt from
  std::string title;
};

struct TimelineLane {
  int attempt = 1;
  int subtask = 0;
  int subtasks = 1;
  std::string start;  // "fresh", "restore cp1"
  std::string end;    // how the attempt ended
};

struct TimelineViolation {
  std::string invariant;
  std::string message;           // its first line: in words
  std::vector<size_t> evidence;  // trace lines it cites
};

struct RunTimeline {
  std::string title;     // the scenario
  std::string subtitle;  // mutant, verdict
  int32_t partitions = 1;
  std::vector<TimelineLane> lanes;  // in (attempt, subtask) order
  std::vector<TimelineEvent> events;  // in trace order
  std::vector<TimelineRecord> records;  // every record appended, in append order
  std::vector<TimelineMarker> markers;
  std::vector<TimelineRestore> restores;
  std::vector<TimelineViolation> violations;
};

// One thing to draw. Coordinates are whole pixels, by kind:
// kRect x y w h; kLine x1 y1 x2 y2; kCircle cx cy r; kPolygon x y pairs;
// kText x y (anchor: start, middle, end); kPath a cubic curve x1 y1 c1x c1y
// c2x c2y x2 y2.
struct Shape {
  enum class Kind { kRect, kLine, kCircle, kPolygon, kText, kPath };
  Kind kind = Kind::kRect;
  std::vector<int> at;
  std::string text;    // kText
  std::string anchor;  // kText: "start" (default), "middle", "end"
  std::string cls;     // CSS classes: what it is (sim/view/timeline_svg.cc styles them)
  std::string id;      // stable, for tests and links; may be empty
  std::string title;   // hover text; may be empty
};

struct TimelineLayout {
  int width = 0;
  int height = 0;
  std::vector<Shape> shapes;  // in drawing order
};

TimelineLayout LayOutTimeline(const RunTimeline& timeline);

}  // namespace durasim
