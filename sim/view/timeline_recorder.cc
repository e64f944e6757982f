// Gathering a run's timeline (sim/view/timeline_recorder.h).
#include "sim/view/timeline_recorder.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <set>
#include <tuple>

#include "model/checkpoint.h"
#include "model/identity.h"
#include "model/key_groups.h"
#include "model/world.h"
#include "sim/output_file.h"
#include "sim/view/timeline_svg.h"
#include "sim/view/trace_line.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// The value of `name=` in a trace line's detail, up to the next space.
std::string Field(const std::string& detail, const std::string& name) {
  const std::string tag = name + "=";
  size_t at = detail.find(tag);
  while (at != std::string::npos && at != 0 && detail[at - 1] != ' ') at = detail.find(tag, at + 1);
  if (at == std::string::npos) return "";
  const size_t from = at + tag.size();
  const size_t end = detail.find(' ', from);
  return detail.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

// A line's `subtask=N`, when it has one that is a subtask number; a key
// that holds " subtask=" in its quoted text is no subtask (the recorder
// only watches: it never fails a run).
std::optional<int> SubtaskField(const std::string& detail) {
  const std::string text = Field(detail, "subtask");
  int subtask = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), subtask);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || subtask < 0) return std::nullopt;
  return subtask;
}

std::string Shorten(const std::string& text, size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 1) + "~";
}

// The trace kinds drawn as log and job events (model/attempt.cc).
const std::set<std::string> kLogEvents = {"log.deleted",  "log.retention",        "log.compacted", "log.recreated",
                                          "log.corrupted", "log.partitions_added", "log.slow_fetch", "broker.down",
                                          "rescale",       "restore.stale"};

const char* PhaseName(Checkpoint::Phase phase) {
  switch (phase) {
    case Checkpoint::Phase::kTaken: return "taken";
    case Checkpoint::Phase::kCompleted: return "completed";
    case Checkpoint::Phase::kAborted: return "aborted";
    case Checkpoint::Phase::kFailed: return "failed";
    case Checkpoint::Phase::kSubsumed: return "subsumed";
  }
  return "?";
}

}  // namespace

TimelineRecorder::TimelineRecorder(const Scenario& scenario, bool dump_log) : scenario_(scenario), dump_log_(dump_log) {
  for (const ActionSpec& action : scenario.actions) names_[ActionHash(action.name)] = action.name;
  for (const AttemptSpec& attempt : scenario.attempts) {
    if (!attempt.plan) continue;
    for (const ActionSpec& action : attempt.plan->actions) names_[ActionHash(action.name)] = action.name;
  }
  timeline_.title = scenario.path.empty() ? scenario.name : scenario.path;
  timeline_.partitions = scenario.PartitionsMax();
}

int TimelineRecorder::OwnerOf(const std::string& key) const {
  const int32_t parallelism = scenario_.ParallelismOf(std::max(attempt_, 1));
  return parallelism <= 1 ? 0 : SubtaskOfKey(key, scenario_.max_parallelism, parallelism);
}

TimelineEvent& TimelineRecorder::Add(TimelineEvent::Kind kind, size_t trace_index, int subtask, std::string label) {
  DURASIM_CHECK_GE(subtask, 0);  // a lane: OwnerOf or a parsed subtask=N, never negative
  TimelineEvent event;
  event.kind = kind;
  event.trace_index = trace_index;
  event.attempt = attempt_;
  event.subtask = subtask;
  event.label = std::move(label);
  timeline_.events.push_back(std::move(event));
  return timeline_.events.back();
}

void TimelineRecorder::OnRecordAppended(const LogRecord& record, const DecodedState* /*decoded*/, size_t trace_index) {
  TimelineRecord entry;
  entry.record = DecodeLogRecord(record);
  entry.attempt = attempt_;
  entry.trace_index = trace_index;
  entry.description = DescribeRecord(entry.record, names_);
  TimelineEvent& event =
      Add(TimelineEvent::Kind::kRecord, trace_index, OwnerOf(entry.record.state_key.key),
          fmt::format("{}\np{}@{}", RecordKindName(entry.record.kind), record.partition, record.offset));
  event.partition = record.partition;
  event.offset = record.offset;
  event.record_kind = entry.record.kind;
  timeline_.records.push_back(std::move(entry));
}

void TimelineRecorder::OnSupplierCall(const CallIdentity& call, const CallArgument& /*argument*/, size_t trace_index) {
  Add(TimelineEvent::Kind::kCall, trace_index, OwnerOf(call.state_key.key), Shorten(call.function, 9));
  open_calls_[call] = timeline_.events.size() - 1;
}

void TimelineRecorder::OnSupplierAnswered(const CallIdentity& call, const CallResult& answer, size_t /*trace_index*/) {
  auto it = open_calls_.find(call);
  if (it == open_calls_.end()) return;
  TimelineEvent& event = timeline_.events[it->second];
  // Open calls are cleared before AfterAttempt reorders the events.
  DURASIM_CHECK(event.kind == TimelineEvent::Kind::kCall);
  event.label += answer.status == CallStatus::kFailed ? "\nfailed" : fmt::format("\n={}", answer.result);
  open_calls_.erase(it);
}

void TimelineRecorder::OnCallResultUsed(const CallIdentity& call, const CallResult& /*used*/, bool reused,
                                        size_t trace_index) {
  if (!reused) return;
  Add(TimelineEvent::Kind::kReused, trace_index, OwnerOf(call.state_key.key), "reused\n" + Shorten(call.function, 9));
}

void TimelineRecorder::OnCheckpointTaken(const std::string& id, size_t trace_index) {
  if (id == kFinalCheckpoint) return;  // the runner's epilogue, after the last attempt
  TimelineEvent& event = Add(TimelineEvent::Kind::kCheckpoint, trace_index, 0, Shorten(id, 9));
  event.all_subtasks = true;
}

void TimelineRecorder::OnRebuild(const Status& status, bool /*marker_invalid_expected*/, bool /*corrupt_in_range*/,
                                 size_t trace_index) {
  TimelineEvent& event = Add(TimelineEvent::Kind::kRestore, trace_index, 0, "restore");
  event.bad = !status.ok();
}

void TimelineRecorder::OnOutput(int64_t input_offset, int64_t /*index*/, int64_t value, size_t trace_index) {
  const bool known = input_offset >= 0 && static_cast<size_t>(input_offset) < scenario_.inputs.size();
  Add(TimelineEvent::Kind::kOutput, trace_index, known ? OwnerOf(scenario_.inputs[static_cast<size_t>(input_offset)].key) : 0,
      fmt::format("out\n{}", value));
}

// Faults, crashes, failures and log events, from the trace lines this
// attempt added; every event's hover text is its trace line.
void TimelineRecorder::ReadTrace(const Trace& trace) {
  for (size_t i = trace_read_; i < trace.size(); ++i) {
    const TraceLineParts line = ParseTraceLine(trace.line(i));
    const std::optional<int> subtask = SubtaskField(line.detail);
    const int lane = subtask.value_or(0);
    if (line.kind == "fault.fired") {
      const std::string put = Field(line.detail, "put");
      Add(TimelineEvent::Kind::kFault, i, lane, "fault\n" + Shorten(Field(line.detail, "fault"), 11));
      timeline_.events.back().all_subtasks = !subtask.has_value();
      if (!put.empty()) timeline_.events.back().label += "\n@" + put;
    } else if (line.kind == "crash") {
      Add(TimelineEvent::Kind::kCrash, i, 0, "crash").all_subtasks = true;
    } else if (line.kind == "attempt.failed" || line.kind == "attempt.stuck" || line.kind == "error") {
      TimelineEvent& event = Add(TimelineEvent::Kind::kFailed, i, 0, line.kind == "error" ? "error" : line.kind.substr(8));
      event.all_subtasks = true;
      event.bad = true;
    } else if (kLogEvents.count(line.kind) != 0) {
      const size_t dot = line.kind.find('.');
      Add(TimelineEvent::Kind::kLog, i, lane, Shorten(dot == std::string::npos ? line.kind : line.kind.substr(dot + 1), 11))
          .all_subtasks = !subtask.has_value();
    }
  }
  for (TimelineEvent& event : timeline_.events) {
    if (event.trace_index < trace_read_ || event.trace_index >= trace.size()) continue;
    event.title = std::string(trace.line(event.trace_index));
    const TraceLineParts line = ParseTraceLine(event.title);
    if (event.kind == TimelineEvent::Kind::kRestore) {
      if (const std::optional<int> subtask = SubtaskField(line.detail)) event.subtask = *subtask;
    }
    if (event.kind == TimelineEvent::Kind::kRestore) {
      event.label = Shorten(Field(line.detail, "checkpoint"), 9) + (event.bad ? "\nrejected" : "\nrestored");
    }
  }
  trace_read_ = trace.size();
}

// The marker a restore line says its subtask rebuilt from ("marker={0: 4,
// 1: 0}"), or none when the line has none that parses.
std::optional<std::map<int32_t, int64_t>> RestoreMarker(const std::string& detail) {
  const size_t at = detail.find("marker={");
  if (at == std::string::npos) return std::nullopt;
  const size_t close = detail.find('}', at);
  if (close == std::string::npos) return std::nullopt;
  std::map<int32_t, int64_t> offsets;
  std::string body = detail.substr(at + 8, close - at - 8);
  for (size_t from = 0; from < body.size();) {
    size_t comma = body.find(',', from);
    if (comma == std::string::npos) comma = body.size();
    const std::string pair = body.substr(from, comma - from);
    const size_t colon = pair.find(':');
    if (colon == std::string::npos) return std::nullopt;
    try {
      offsets[std::stoi(pair.substr(0, colon))] = std::stoll(pair.substr(colon + 1));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    from = comma + 1;
  }
  return offsets;
}

// This attempt's restores, one per subtask: what each read, from the marker
// it rebuilt from to the end of each partition then.
void TimelineRecorder::Restores(World& world, size_t first_event) {
  for (size_t e = first_event; e < timeline_.events.size(); ++e) {
    const TimelineEvent& event = timeline_.events[e];
    if (event.kind != TimelineEvent::Kind::kRestore) continue;
    TimelineRestore restore;
    restore.attempt = event.attempt;
    restore.subtask = event.subtask;
    restore.subtasks = scenario_.ParallelismOf(event.attempt);
    restore.trace_index = event.trace_index;
    // Each subtask of the attempt rebuilds on its own: a restore is one of theirs.
    DURASIM_CHECK(restore.subtask >= 0 && restore.subtask < restore.subtasks);
    const std::string detail = ParseTraceLine(event.title).detail;
    restore.checkpoint = Field(detail, "checkpoint");
    restore.rejected = event.bad;
    restore.title = event.title;
    std::optional<std::map<int32_t, int64_t>> marker = RestoreMarker(detail);
    if (!marker) {
      const Checkpoint* checkpoint = world.checkpoints().Find(restore.checkpoint);
      if (checkpoint == nullptr) continue;
      marker = MinimumMarker(checkpoint->markers).offsets;
    }
    std::map<int32_t, int64_t> end;
    for (const TimelineRecord& record : timeline_.records) {
      if (record.trace_index > event.trace_index) break;
      end[record.record.partition] = std::max(end[record.record.partition], record.record.offset + 1);
    }
    for (const auto& [partition, from] : *marker) restore.ranges[partition] = {from, std::max(from, end[partition])};
    timeline_.restores.push_back(std::move(restore));
  }
}

void TimelineRecorder::AfterAttempt(int attempt, Attempt::End end, World& world) {
  const size_t first_event = std::find_if(timeline_.events.begin(), timeline_.events.end(),
                                          [attempt](const TimelineEvent& e) { return e.attempt == attempt; }) -
                             timeline_.events.begin();
  ReadTrace(world.trace());
  std::stable_sort(timeline_.events.begin() + static_cast<std::ptrdiff_t>(first_event), timeline_.events.end(),
                   [](const TimelineEvent& a, const TimelineEvent& b) { return a.trace_index < b.trace_index; });
  open_calls_.clear();
  Restores(world, first_event);
  DURASIM_CHECK(attempt >= 1 && static_cast<size_t>(attempt) <= scenario_.attempts.size());
  const AttemptSpec& spec = scenario_.attempts[static_cast<size_t>(attempt - 1)];
  std::string start = "fresh start";
  if (spec.restore) {
    start = "restore " + *spec.restore;
    if (!timeline_.restores.empty() && timeline_.restores.back().attempt == attempt &&
        timeline_.restores.back().checkpoint != *spec.restore) {
      start += " = " + timeline_.restores.back().checkpoint;
    }
  }
  const int32_t parallelism = scenario_.ParallelismOf(attempt);
  for (int32_t s = 0; s < parallelism; ++s) {
    timeline_.lanes.push_back(TimelineLane{attempt, s, parallelism, start, AttemptEndName(end)});
  }
  // Every checkpoint's marker and how far it got, as the storage has it now.
  for (size_t e = first_event; e < timeline_.events.size(); ++e) {
    const TimelineEvent& event = timeline_.events[e];
    if (event.kind != TimelineEvent::Kind::kCheckpoint) continue;
    TimelineMarker marker;
    marker.checkpoint = Field(ParseTraceLine(event.title).detail, "id");
    marker.attempt = attempt;
    timeline_.markers.push_back(marker);
  }
  for (TimelineMarker& marker : timeline_.markers) {
    if (const Checkpoint* checkpoint = world.checkpoints().Find(marker.checkpoint)) {
      marker.offsets = MinimumMarker(checkpoint->markers).offsets;
      marker.phase = PhaseName(checkpoint->phase);
    }
  }
  for (TimelineEvent& event : timeline_.events) {
    if (event.kind != TimelineEvent::Kind::kCheckpoint || event.attempt != attempt) continue;
    const std::string id = Field(ParseTraceLine(event.title).detail, "id");
    if (const Checkpoint* checkpoint = world.checkpoints().Find(id)) event.label = Shorten(id, 9) + "\n" + PhaseName(checkpoint->phase);
  }
  Result<std::vector<std::vector<LogRecord>>> log = world.ReadLog();
  if (log.ok()) {
    std::set<std::tuple<int32_t, int64_t, std::string>> present;
    for (const std::vector<LogRecord>& partition : *log) {
      for (const LogRecord& record : partition) present.insert({record.partition, record.offset, record.key});
    }
    for (TimelineRecord& record : timeline_.records) {
      record.in_final_log = present.count({record.record.partition, record.record.offset, record.record.key}) != 0;
    }
  }
  if (!dump_log_) return;
  log_dump_ += fmt::format("log after attempt {} ({}):\n", attempt, AttemptEndName(end));
  log_dump_ += log.ok() ? FormatLogDump(*log, names_) : fmt::format("  cannot be read: {}\n", log.status().ToString());
}

RunTimeline TimelineRecorder::Finish(const RunReport& report) {
  RunTimeline timeline = timeline_;
  std::string verdict = NameOf(report.verdict);
  const std::vector<Invariant> shown = InvariantsOf(report.violations);
  if (!shown.empty()) {
    std::vector<std::string> names;
    for (Invariant invariant : shown) names.push_back(NameOf(invariant));
    verdict += fmt::format(" ({})", fmt::join(names, ", "));
  }
  timeline.subtitle = fmt::format("{} · verdict {}{} · {} supplier calls · trace {:016x}",
                                  report.mutant.empty() ? "the production code" : "mutant " + report.mutant, verdict,
                                  report.ok ? ", as expected" : ", NOT as expected", report.supplier_calls,
                                  report.trace_hash);
  std::set<size_t> cited;
  for (const Violation& violation : report.violations) {
    const size_t newline = violation.message.find('\n');
    timeline.violations.push_back(TimelineViolation{NameOf(violation.invariant), violation.message.substr(0, newline),
                                                    violation.evidence});
    cited.insert(violation.evidence.begin(), violation.evidence.end());
  }
  if (!report.error.empty()) timeline.violations.push_back(TimelineViolation{"error", report.error, {}});
  // The tap saw every attempt the report ended (AfterAttempt): one lane each at least.
  DURASIM_CHECK_GE(timeline.lanes.size(), report.attempt_ends.size());
  // A supplier call a violation cites is a repeated one.
  for (TimelineEvent& event : timeline.events) {
    if (event.kind != TimelineEvent::Kind::kCall || cited.count(event.trace_index) == 0) continue;
    event.bad = true;
    event.label = event.label.substr(0, event.label.find('\n')) + "\nAGAIN";
  }
  return timeline;
}

RecordedRun RunRecorded(const Scenario& scenario, const RunOptions& options, bool dump_log) {
  TimelineRecorder recorder(scenario, dump_log);
  RunOptions tapped = options;
  tapped.tap = &recorder;
  RecordedRun run;
  run.report = RunScenario(scenario, tapped);
  run.timeline = recorder.Finish(run.report);
  run.log_dump = recorder.log_dump();
  return run;
}

Status WriteTimeline(const std::string& path, const Scenario& scenario, const RunOptions& options) {
  const RecordedRun run = RunRecorded(scenario, options, false);
  return WriteFile(path, RenderTimelineFor(path, LayOutTimeline(run.timeline), run.timeline.title));
}

std::string TimelinePathBeside(const std::string& path) {
  return std::filesystem::path(path).replace_extension(".svg").string();
}

}  // namespace durasim
