// CauseTracker: watches a run beside the checkers and, for a violation,
// names its cause in lines a person can follow without counting trace
// lines: the restore of the attempt where it happened (its trace line,
// with the marker and the records it scanned) and, for each state the
// violation's events name, the records of that state the log held before
// the restore (only those the violation cites, and tombstones, when it
// cites one), each with what it holds (sim/run/record_summary.h) and whether
// the restore read it or it lay below the marker (#1158 is exactly a
// result record below the marker), or a tombstone that made it forget the
// state. It also keeps, per record line of the trace, the record itself, so
// that the readable trace (sim/view/trace_view.h) can say what it holds. Records
// are summarized only when a cause or the readable trace asks: a run that
// passes decodes nothing here. Nothing it does reaches the trace or its
// hash.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/observer.h"
#include "model/trace.h"

namespace durasim {

class CauseTracker : public RunObserver {
 public:
  // REQUIRES: `trace` outlives the tracker.
  explicit CauseTracker(const Trace& trace) : trace_(trace) {}

  void OnAttemptStart(int attempt) override { attempt_ = attempt; }
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnSupplierCall(const CallIdentity& call, const CallArgument& argument, size_t trace_index) override;
  void OnSavedCallMismatch(const CallIdentity& call, const CallArgument& argument, const CallResult& saved,
                           size_t trace_index) override;
  void OnSupplierAnswered(const CallIdentity& call, const CallResult& answer, size_t trace_index) override;
  void OnCallResultUsed(const CallIdentity& call, const CallResult& used, bool reused, size_t trace_index) override;
  void OnActionExecuted(const TaskView& task, size_t trace_index) override;
  void OnPutIssued(const StateKey& key, size_t trace_index) override;
  void OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status, size_t trace_index) override;
  void OnGetHit(const StateKey& key, uint64_t value_digest, size_t trace_index) override;
  void OnRestore(const RestoreView& restore, size_t trace_index) override;

  // The cause lines (each "    cause: ...") of a violation citing the
  // trace events `evidence`; none when the events name no restore and no
  // state.
  std::vector<std::string> CausesOf(const std::vector<size_t>& evidence) const;
  // Per trace line of a record appended or discovered: the record. Moves
  // them out: call once, after the run.
  std::map<size_t, LogRecord> TakeRecordLines() { return std::move(record_lines_); }

 private:
  struct Restore {
    int attempt = 0;
    size_t trace_index = 0;
    RestoreView view;
  };

  void Name(size_t trace_index, const StateKey& key) { states_at_.emplace(trace_index, key); }
  // The attempt of trace line `index` (its "a<N>" column).
  int AttemptOfLine(size_t index) const;
  std::string ActionName(const StateKey& key) const;
  // The cause lines for the records of `key` the log held before `restore`
  // (all the records so far when there is no restore).
  void DescribeRecordsOf(const StateKey& key, const Restore* restore, size_t before,
                         const std::vector<size_t>& evidence, std::vector<std::string>& lines) const;

  const Trace& trace_;
  int attempt_ = 0;
  std::map<size_t, StateKey> states_at_;              // trace index -> the state its event is about
  std::map<StateKey, std::vector<size_t>> records_;   // trace indices into record_lines_, in the order seen
  std::map<uint64_t, std::string> action_names_;      // action hash -> name
  std::vector<Restore> restores_;
  std::map<size_t, LogRecord> record_lines_;         // trace index -> the record appended or discovered there
};

}  // namespace durasim
