// CauseTracker implementation.
#include "sim/run/violation_cause.h"

#include <fmt/ranges.h>

#include <algorithm>

#include "sim/run/record_summary.h"
#include "store/check.h"
#include "store/format.h"
#include "store/state_codec.h"

namespace durasim {
namespace {

// How many records of one state a cause lists (the latest ones): a state
// has a start, a pending and a result record per call, and a completion.
constexpr size_t kRecordsPerStateMax = 6;
// How many states of one violation get their records listed.
constexpr size_t kStatesMax = 2;

}  // namespace

void CauseTracker::OnRecordAppended(const LogRecord& record, const DecodedState* /*decoded*/, size_t trace_index) {
  record_lines_[trace_index] = record;
  Result<StateKey> key = ParseRecordKey(record.key);
  if (!key.ok()) return;  // a cleanup record or an undecodable key: about no one state
  Name(trace_index, *key);
  std::vector<size_t>& indices = records_[*key];
  // The trace only grows: a state's records stay in the order they were
  // written, which DescribeRecordsOf's "latest ones" relies on.
  DURASIM_CHECK(indices.empty() || indices.back() < trace_index);
  indices.push_back(trace_index);
}

void CauseTracker::OnSupplierCall(const CallIdentity& call, const CallArgument&, size_t trace_index) {
  Name(trace_index, call.state_key);
}

void CauseTracker::OnSavedCallMismatch(const CallIdentity& call, const CallArgument&, const CallResult&,
                                       size_t trace_index) {
  Name(trace_index, call.state_key);
}

void CauseTracker::OnSupplierAnswered(const CallIdentity& call, const CallResult&, size_t trace_index) {
  Name(trace_index, call.state_key);
}

void CauseTracker::OnCallResultUsed(const CallIdentity& call, const CallResult&, bool, size_t trace_index) {
  Name(trace_index, call.state_key);
}

void CauseTracker::OnActionExecuted(const TaskView& task, size_t trace_index) {
  Name(trace_index, task.state_key);
  action_names_.emplace(task.state_key.action_hash, task.action);
}

void CauseTracker::OnPutIssued(const StateKey& key, size_t trace_index) { Name(trace_index, key); }

void CauseTracker::OnPutResult(const StateKey& key, uint64_t, const Status&, size_t trace_index) {
  Name(trace_index, key);
}

void CauseTracker::OnGetHit(const StateKey& key, uint64_t, size_t trace_index) { Name(trace_index, key); }

void CauseTracker::OnRestore(const RestoreView& restore, size_t trace_index) {
  // In trace order: CausesOf takes an attempt's first restore as its first subtask's.
  DURASIM_CHECK(restores_.empty() || restores_.back().trace_index < trace_index);
  restores_.push_back(Restore{attempt_, trace_index, restore});
}

int CauseTracker::AttemptOfLine(size_t index) const {
  DURASIM_CHECK_LT(index, trace_.size());
  // "<time> a<attempt> <kind> ...": the second field.
  const std::string_view line = trace_.line(index);
  const size_t at = line.find(" a", line.find_first_not_of(' '));
  if (at == std::string::npos) return 0;
  int attempt = 0;
  for (size_t i = at + 2; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) attempt = attempt * 10 + (line[i] - '0');
  return attempt;
}

std::string CauseTracker::ActionName(const StateKey& key) const {
  auto it = action_names_.find(key.action_hash);
  return it == action_names_.end() ? std::string() : it->second;
}

void CauseTracker::DescribeRecordsOf(const StateKey& key, const Restore* restore, size_t before,
                                     const std::vector<size_t>& evidence, std::vector<std::string>& lines) const {
  const std::string state = DescribeStateKeyBriefly(key, ActionName(key));
  // The state's records before `before`, each with what it holds.
  struct Held {
    size_t trace_index;
    const LogRecord* record;
    RecordSummary summary;
  };
  const auto cited = [&](size_t trace_index) {
    return std::find(evidence.begin(), evidence.end(), trace_index) != evidence.end();
  };
  std::vector<Held> held;
  bool any_cited = false;
  if (auto it = records_.find(key); it != records_.end()) {
    for (size_t trace_index : it->second) {
      if (trace_index >= before) continue;
      const LogRecord& record = record_lines_.at(trace_index);
      held.push_back(Held{trace_index, &record, SummarizeRecord(record.key, record.value)});
      any_cited = any_cited || cited(trace_index);
    }
  }
  const auto tombstone = [](const Held& h) { return h.summary.kind == RecordSummary::Kind::kTombstone; };
  // When the violation cites a record of the state, that record decided
  // it: it and the tombstones are listed, not the whole history.
  if (any_cited) {
    std::erase_if(held, [&](const Held& h) { return !cited(h.trace_index) && !tombstone(h); });
  }
  if (held.empty()) {
    lines.push_back(fmt::format("    cause: the log held no record of {} before #{}", state, before));
    return;
  }
  const size_t skipped = held.size() > kRecordsPerStateMax ? held.size() - kRecordsPerStateMax : 0;
  DURASIM_CHECK_LT(skipped, held.size());  // the latest record is always listed
  if (skipped > 0) lines.push_back(fmt::format("    cause: {} earlier records of {} not listed", skipped, state));
  for (size_t i = skipped; i < held.size(); ++i) {
    const LogRecord& record = *held[i].record;
    std::string where;
    if (restore != nullptr) {
      auto marked = restore->view.marker.find(record.partition);
      const int64_t from = marked == restore->view.marker.end() ? 0 : marked->second;
      if (record.offset < from) {
        where = fmt::format("; below the marker (partition {} from offset {}): the restore at #{} did not read it",
                            record.partition, from, restore->trace_index);
      } else {
        where = fmt::format("; read by the restore at #{}{}", restore->trace_index,
                            tombstone(held[i]) ? ", which forgot the state" : "");
      }
    }
    lines.push_back(fmt::format("    cause: #{} {} at partition {} offset {}: {}{}", held[i].trace_index, state,
                                record.partition, record.offset, held[i].summary.text, where));
  }
}

std::vector<std::string> CauseTracker::CausesOf(const std::vector<size_t>& evidence) const {
  std::vector<std::string> lines;
  if (evidence.empty()) return lines;
  const size_t last = *std::max_element(evidence.begin(), evidence.end());
  if (last >= trace_.size()) return lines;
  // The restore the violating attempt started from: its first subtask's
  // (every subtask reads from the same union-list minimum).
  const int attempt = AttemptOfLine(last);
  const Restore* restore = nullptr;
  size_t subtasks = 0;
  for (const Restore& r : restores_) {
    if (r.attempt != attempt || r.trace_index > last) continue;
    if (restore == nullptr) restore = &r;
    ++subtasks;
  }
  if (restore != nullptr) {
    DURASIM_CHECK_LT(restore->trace_index, trace_.size());  // a line of this run's trace
    lines.push_back(fmt::format("    cause: attempt {} restored {} from marker {} and scanned {} record{}{}: #{} {}",
                                attempt, restore->view.checkpoint, restore->view.marker,
                                restore->view.records_scanned, restore->view.records_scanned == 1 ? "" : "s",
                                subtasks > 1 ? fmt::format(" (subtask {}; {} subtasks restored)", restore->view.subtask,
                                                           subtasks)
                                             : "",
                                restore->trace_index, trace_.line(restore->trace_index)));
  }
  std::vector<StateKey> states;
  for (size_t index : evidence) {
    auto it = states_at_.find(index);
    if (it == states_at_.end()) continue;
    if (std::find(states.begin(), states.end(), it->second) == states.end()) states.push_back(it->second);
  }
  for (size_t i = 0; i < states.size() && i < kStatesMax; ++i) {
    DescribeRecordsOf(states[i], restore, restore != nullptr ? restore->trace_index : last, evidence, lines);
  }
  return lines;
}

}  // namespace durasim
