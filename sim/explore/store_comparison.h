// The store designs side by side (`durasim compare-stores`): the same
// generated workloads, in a few named shapes, run on every design, and per
// design what it costs and whether it held: records and bytes written,
// records written at snapshots per checkpoint, records scanned per restore
// and its wall time, put latency (simulated), runs that were not as
// expected. The costs are read from each run's trace and records (the
// restore wall time from the runner's clock), so every backend reports
// them alike; nothing here judges a run beyond its verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/backends/backend_kind.h"
#include "model/enum_table.h"
#include "model/scenario.h"
#include "model/store_designs.h"
#include "sim/run/run_report.h"

namespace durasim {

// How a generated scenario is reshaped to stress one side of the trade-off.
enum class WorkloadShape {
  kGenerated,            // as explore generates it
  kManyKeys,             // every input its own key
  kLongActions,          // calls async and 10x slower: actions span checkpoints
  kFrequentCheckpoints,  // a completed checkpoint after every step of a faulty attempt
  kCrashStorm,           // four more attempts before the healed one, each checkpoints and crashes
};
std::optional<EnumInfo> EnumInfoOf(WorkloadShape shape);

// `scenario` reshaped; kFrequentCheckpoints adds `density` checkpoints after
// each step (1 by default; 0 adds none).
Scenario Reshaped(Scenario scenario, WorkloadShape shape, int density = 1);

// Explore seed `seed` generated for `design`, then given the workload every
// design shares (what any design cannot run left out, faults aimed at one
// design's own writes too), reshaped: what compare-stores runs.
Scenario ComparisonScenario(uint64_t seed, WorkloadShape shape, StoreDesign design, int density = 1);

// What runs on one design cost, summed.
struct DesignCosts {
  int64_t runs = 0;
  int64_t not_as_expected = 0;   // violations and errors (infra runs are counted apart)
  int64_t infra = 0;
  int64_t checkpoints = 0;       // taken (the final one not counted)
  int64_t snapshot_records = 0;  // written at snapshots (kafka-rewrite's rewrites)
  int64_t records = 0;           // appended in all
  int64_t bytes = 0;             // their keys and values
  int64_t restores = 0;          // per subtask
  int64_t scanned = 0;           // records the restores' rebuilds scanned
  std::vector<int64_t> put_latency_us;  // every acknowledged put, simulated
  // Every restore's rebuild (per subtask) in wall time: on a real broker
  // what a restore waits for the log; on the model its CPU time. Not
  // simulated, so it differs run to run.
  std::vector<int64_t> restore_wall_us;

  // Adds what `report`'s run cost (its trace and records).
  void Add(const RunReport& report);
  double SnapshotRecordsPerCheckpoint() const;
  double ScannedPerRestore() const;
  // The `percent`th percentile of put latency in ms (0 without puts).
  double PutLatencyMs(double percent) const;
  // The `percent`th percentile of restore wall time in ms (0 without restores).
  double RestoreWallMs(double percent) const;
};

struct ComparisonOptions {
  uint64_t seeds = 200;
  uint64_t seed_start = 1;
  std::vector<WorkloadShape> shapes;  // empty: every shape
  BackendKind backend = BackendKind::kModel;
  std::string bootstrap_servers;
  bool compare_model = false;  // on mock or kafka: also run on the model; a difference is not as expected
};

struct ComparisonRow {
  WorkloadShape shape;
  StoreDesign design;
  DesignCosts costs;
};

// Every shape on every design over the seeds, in shape then design order.
// After SIGINT/SIGTERM (interrupt.h) no further run starts: the rows hold
// what ran, and a row that never started is left out.
std::vector<ComparisonRow> CompareStores(const ComparisonOptions& options);

// The rows as a Markdown table (docs/benchmarks.md) and as JSON:
// {"rows": [...], "interrupted": whether a signal cut the comparison short}.
std::string ComparisonTable(const std::vector<ComparisonRow>& rows);
std::string ComparisonJson(const std::vector<ComparisonRow>& rows, bool interrupted);

// Snapshot cost and replay cost per design as checkpoints grow (density 0
// to 4 of kFrequentCheckpoints over the seeds): an SVG line chart.
std::string CheckpointCostChart(const ComparisonOptions& options);

}  // namespace durasim
