// The limits of a scenario file, in one place: every dimension a file can
// grow has a maximum here, checked by the parser (sim/scenario/scenario_parser.cc)
// with the file position and the limit's name, and documented in one table
// (docs/scenarios.md, "Limits"). They are chosen so that any file within
// them runs within the bound docs/benchmarks.md measures ("Worst case"); the
// generator (properties/scenario_generator.cc) draws far below them.
#pragma once

#include <cstdint>

namespace durasim::limits {

// Shape of the file.
inline constexpr int64_t kFileBytesMax = 2 * 1024 * 1024;  // a scenario file
inline constexpr int64_t kNestingDepthMax = 32;         // collections inside collections (a scenario needs about 11)
inline constexpr int64_t kValueShownMax = 80;           // characters of an offending value a message quotes
inline constexpr int64_t kStringBytesMax = 4096;        // a name, a key, a checkpoint id, a memory slot
inline constexpr int64_t kDescriptionBytesMax = 65536;  // `description`

// The plan (the scenario's and each deployed one).
inline constexpr int64_t kSuppliersMax = 100;
// A supplier's scripted reconciler answers (`reconcile:`).
inline constexpr int64_t kReconcileAnswersMax = 100;
inline constexpr int64_t kActionsMax = 100;
inline constexpr int64_t kActionStepsMax = 100;  // steps of one action: calls, emits, memory, outputs

// Cost (model/scenario_cost.h): what the shape of a file makes a run do.
inline constexpr int64_t kCallResultsPerActionMax = 1'000;  // calls of one action times the tries of each
inline constexpr int64_t kActionRunsPerInputMax = 1'000;    // action runs one input triggers (emits fan out)
// Each action run also costs kUnitsPerActionRun of its own (events, tasks, trace lines).
inline constexpr int64_t kUnitsPerActionRun = 20;
inline constexpr int64_t kWorkUnitsMax = 1'000'000;         // the whole run (at most ~7 us of CPU each, docs/benchmarks.md)

// Inputs and attempts.
inline constexpr int64_t kInputsMax = 50'000;
inline constexpr int64_t kAttemptsMax = 100;
inline constexpr int64_t kAttemptStepsMax = 1'000;  // steps of one attempt's script
inline constexpr int64_t kPartitionsMax = 1024;     // the topic's, after every add_partitions
inline constexpr int64_t kLogRecordsMax = 100'000;  // records `expect: log:` states of one partition
inline constexpr int64_t kParallelismMax = 64;      // subtasks of the action operator
inline constexpr int64_t kMaxParallelismMax = 32768;  // key groups (Flink's bound)

// Values.
inline constexpr int64_t kDurationMsMax = 86'400'000;  // durations and latencies: one simulated day
inline constexpr int64_t kCountMax = 1'000'000;        // read counts, fault `nth`, a supplier's failing `nth`
inline constexpr int64_t kRetriesMax = 100;            // `on_error: {retry: {max: ...}}`
inline constexpr int64_t kPutRetriesMax = 100;         // `log.put_retries_max`

}  // namespace durasim::limits
