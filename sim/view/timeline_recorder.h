// Gathers what a run did into a RunTimeline (sim/view/timeline_layout.h) while it
// runs: a RunTap (sim/run/run_options.h) whose observer hears the records appended,
// the supplier calls and reused results, checkpoints, restores and outputs,
// and which reads the trace after each attempt for faults, crashes and log
// events, and the log itself (for --dump-log). It only watches: the run's
// trace and verdict are the same with it or without it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "sim/run/runner.h"
#include "sim/view/timeline_layout.h"

namespace durasim {

class TimelineRecorder : public RunTap, private RunObserver {
 public:
  // `dump_log`: also decode the whole log after each attempt (log_dump()).
  TimelineRecorder(const Scenario& scenario, bool dump_log);

  RunObserver* observer() override { return this; }
  void AfterAttempt(int attempt, Attempt::End end, World& world) override;

  // The timeline, completed with the run's verdict and violations.
  RunTimeline Finish(const RunReport& report);
  // Every partition's records after each attempt, decoded (dump_log only).
  const std::string& log_dump() const { return log_dump_; }

 private:
  void OnAttemptStart(int attempt) override { attempt_ = attempt; }
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) override;
  void OnSupplierAnswered(const CallIdentity& call, const CallResult& answer, size_t trace_index) override;
  void OnCallResultUsed(const CallIdentity& call, const CallResult& used, bool reused, size_t trace_index) override;
  void OnCheckpointTaken(const std::string& id, size_t trace_index) override;
  void OnRebuild(const Status& status, bool marker_invalid_expected, bool corrupt_in_range, size_t trace_index) override;
  void OnOutput(int64_t input_offset, int64_t index, int64_t value, size_t trace_index) override;

  TimelineEvent& Add(TimelineEvent::Kind kind, size_t trace_index, int subtask, std::string label);
  int OwnerOf(const std::string& key) const;
  void ReadTrace(const Trace& trace);
  void Restores(World& world, size_t first_event);

  const Scenario& scenario_;
  const bool dump_log_;
  ActionNames names_;
  RunTimeline timeline_;
  int attempt_ = 0;
  size_t trace_read_ = 0;  // trace lines already read
  std::map<CallIdentity, size_t> open_calls_;  // call -> its event, until answered
  std::string log_dump_;
};

// Runs `scenario` under a TimelineRecorder.
struct RecordedRun {
  RunReport report;
  RunTimeline timeline = {};
  std::string log_dump = {};
};
RecordedRun RunRecorded(const Scenario& scenario, const RunOptions& options, bool dump_log);

// Runs `scenario` and writes its timeline to `path` (SVG; an HTML page for
// .html) atomically.
[[nodiscard]] Status WriteTimeline(const std::string& path, const Scenario& scenario, const RunOptions& options);
// `path` with its extension replaced by .svg: the timeline beside a failure file.
std::string TimelinePathBeside(const std::string& path);

}  // namespace durasim
