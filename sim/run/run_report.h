// What one run found (RunReport): what RunScenario (sim/run/runner.h)
// returns, and what the differential (sim/run/differential.h) compares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/attempt.h"
#include "model/backends/backend_kind.h"
#include "model/scheduler.h"
#include "model/trace.h"
#include "model/verdict.h"
#include "properties/invariant_checker.h"
#include "store/log_client.h"

namespace durasim {

struct RestoreScan {
  int attempt = 0;
  int subtask = 0;
  int64_t records_scanned = 0;
  // Wall time of the rebuild (steady clock), not simulated: on a real
  // broker what a restore waits; on the model the rebuild's CPU time. 0
  // unless RunOptions::time_restores.
  int64_t wall_us = 0;
};

struct RunReport {
  std::string scenario;
  // How the topic's records at the end differ from `expect: log:`, if they do.
  std::optional<std::string> log_difference;
  // `expect: restores:` / `checkpoints:`: the first difference.
  std::optional<std::string> restore_difference;
  std::string path;
  std::string mutant;  // empty: production code
  BackendKind backend = BackendKind::kModel;
  Verdict verdict = Verdict::kPass;
  bool ok = false;      // the verdict matched the expectation
  std::vector<std::string> mismatches;  // why not ok
  int64_t supplier_calls = 0;
  std::vector<int64_t> outputs;  // de-duplicated, in (input, index) order
  uint64_t trace_hash = 0;
  std::optional<uint64_t> trace_text_hash;  // with RunOptions::text_hash: FNV-1a over the trace's text
  SimTime sim_time{0};
  std::vector<Violation> violations;
  std::map<std::string, int64_t> fault_hits;  // fault kind (and kind@put) -> times fired
  // What sim/run/differential.h compares; only on a librdkafka backend and in
  // the model run compared with it (RunOptions::compared).
  std::map<std::string, int64_t> calls_by_identity;     // call identity -> supplier invocations
  std::vector<std::vector<std::string>> log_records;    // per partition, in offset order: "<key> <value digest>"
  // Every fault the scripts armed, whether and where it fired.
  std::vector<ArmedFault> armed_faults;
  // Inputs (offsets) the last attempt left unfinished.
  std::vector<int64_t> unfinished_inputs;
  // Supplier invocations by supplier name, and per input (in `inputs` order).
  std::map<std::string, int64_t> calls_by_supplier;
  std::vector<int64_t> calls_by_input;
  // Records each subtask's rebuild scanned, per restoring attempt.
  std::vector<RestoreScan> restore_scans;
  // How each attempt ended, in order (attempts after an error never ran).
  std::vector<Attempt::End> attempt_ends;
  // Checkpoints that failed at run time: "cp1 (attempt 1): why".
  std::vector<std::string> failed_checkpoints;
  std::string error;  // verdict error: what went wrong
  Trace trace;
  // Per trace line of a record appended or discovered: the record, for the
  // readable trace to say what it holds (sim/run/record_summary.h). Not in the
  // trace hash. Kept when RunOptions::record_lines asks, when the run found
  // a violation, for a tapped run (RunOptions::tap), and always on mock and
  // kafka.
  std::map<size_t, LogRecord> record_lines;
  // With RunOptions::keep_topic: each completed checkpoint's id and its
  // recovery marker (the union list's minimum, with the checkpoint's
  // completed boundaries) in JSON (store/recovery_marker_json.h).
  std::vector<std::pair<std::string, std::string>> checkpoint_markers;
};

}  // namespace durasim
