// The store designs side by side.
#include "sim/explore/store_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "model/store_designs.h"
#include "properties/scenario_generator.h"
#include "sim/interrupt.h"
#include "sim/run/runner.h"
#include "sim/view/line_chart.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

std::optional<EnumInfo> EnumInfoOf(WorkloadShape shape) {
  switch (shape) {
    case WorkloadShape::kGenerated: return EnumInfo{"generated", "as explore generates it"};
    case WorkloadShape::kManyKeys: return EnumInfo{"many-keys", "every input its own key"};
    case WorkloadShape::kLongActions:
      return EnumInfo{"long-actions", "calls async and 10x slower: actions span checkpoints"};
    case WorkloadShape::kFrequentCheckpoints:
      return EnumInfo{"frequent-checkpoints", "a completed checkpoint after every step of a faulty attempt"};
    case WorkloadShape::kCrashStorm:
      return EnumInfo{"crash-storm", "four more attempts before the healed one, each checkpoints and crashes"};
  }
  return std::nullopt;
}

namespace {

AttemptStep Step(AttemptStep::Kind kind, const std::string& checkpoint = "") {
  AttemptStep step;
  step.kind = kind;
  step.checkpoint = checkpoint;
  return step;
}

void Lengthen(std::vector<SupplierSpec>& suppliers, std::vector<ActionSpec>& actions) {
  for (SupplierSpec& supplier : suppliers) {
    supplier.latency_ms *= 10;
    if (supplier.latency_ms_max) *supplier.latency_ms_max *= 10;
  }
  for (ActionSpec& action : actions) {
    for (ActionStep& step : action.steps) {
      if (step.kind == ActionStep::Kind::kCall) step.mode = CallMode::kAsync;
    }
  }
}

void AddCheckpoints(Scenario& scenario, int density) {
  // Never the healed last attempt, which must finish without faults.
  for (size_t a = 0; a + 1 < scenario.attempts.size(); ++a) {
    std::vector<AttemptStep> steps;
    int n = 0;
    for (const AttemptStep& step : scenario.attempts[a].steps) {
      steps.push_back(step);
      for (int d = 0; d < density; ++d) {
        const std::string id = fmt::format("fc{}_{}", a + 1, n++);
        steps.push_back(Step(AttemptStep::Kind::kCheckpoint, id));
        steps.push_back(Step(AttemptStep::Kind::kComplete, id));
      }
    }
    scenario.attempts[a].steps = std::move(steps);
  }
}

void AddCrashStorm(Scenario& scenario) {
  DURASIM_CHECK(!scenario.attempts.empty());  // the healed attempt stays last
  for (int i = 0; i < 4; ++i) {
    AttemptSpec attempt;
    attempt.restore = kRestoreLatest;
    AttemptStep read = Step(AttemptStep::Kind::kRead);
    read.count = 1;
    AttemptStep run = Step(AttemptStep::Kind::kRunFor);
    run.duration_ms = 2;
    const std::string id = fmt::format("cs{}", i);
    attempt.steps = {read, run, Step(AttemptStep::Kind::kCheckpoint, id), Step(AttemptStep::Kind::kComplete, id), run,
                     Step(AttemptStep::Kind::kCrash)};
    scenario.attempts.insert(scenario.attempts.end() - 1, std::move(attempt));
  }
}

}  // namespace

Scenario Reshaped(Scenario scenario, WorkloadShape shape, int density) {
  switch (shape) {
    case WorkloadShape::kGenerated: break;
    case WorkloadShape::kManyKeys:
      for (size_t i = 0; i < scenario.inputs.size(); ++i) scenario.inputs[i].key = fmt::format("k{}", i);
      break;
    case WorkloadShape::kLongActions:
      Lengthen(scenario.suppliers, scenario.actions);
      for (AttemptSpec& attempt : scenario.attempts) {
        if (attempt.plan) Lengthen(attempt.plan->suppliers, attempt.plan->actions);
      }
      break;
    case WorkloadShape::kFrequentCheckpoints: AddCheckpoints(scenario, density); break;
    case WorkloadShape::kCrashStorm: AddCrashStorm(scenario); break;
  }
  return scenario;
}

namespace {

// A rendered trace line: "<time>ms a<attempt> <kind> <detail>".
struct Line {
  double time_ms = 0;
  std::string_view attempt, kind, detail;
};

Line Parse(std::string_view text) {
  Line line;
  auto token = [&text]() {
    const size_t begin = text.find_first_not_of(' ');
    if (begin == std::string_view::npos) return std::string_view();
    text.remove_prefix(begin);
    const size_t end = std::min(text.find(' '), text.size());
    const std::string_view word = text.substr(0, end);
    text.remove_prefix(end);
    return word;
  };
  line.time_ms = std::strtod(std::string(token()).c_str(), nullptr);
  line.attempt = token();
  line.kind = token();
  const size_t begin = text.find_first_not_of(' ');
  line.detail = begin == std::string_view::npos ? std::string_view() : text.substr(begin);
  return line;
}

// The number after `field=` in `detail` (0 when absent).
int64_t Field(std::string_view detail, std::string_view field) {
  const size_t at = detail.find(std::string(field) + "=");
  if (at == std::string_view::npos) return 0;
  return std::strtoll(std::string(detail.substr(at + field.size() + 1)).c_str(), nullptr, 10);
}

// A put's identity in its lines: the attempt and the state key and why,
// everything before " value=".
std::string PutIdentity(const Line& line) {
  return fmt::format("{} {}", line.attempt, line.detail.substr(0, line.detail.find(" value=")));
}

}  // namespace

void DesignCosts::Add(const RunReport& report) {
  ++runs;
  if (report.verdict == Verdict::kInfra) {
    ++infra;
    return;
  }
  if (!report.ok) ++not_as_expected;
  std::map<std::string, double> issued_at;
  for (size_t i = 0; i < report.trace.size(); ++i) {
    const Line line = Parse(report.trace.line(i));
    if (line.kind == "checkpoint.taken" && line.detail.find("id=__final__") == std::string_view::npos) {
      ++checkpoints;
    } else if (line.kind == "checkpoint.rewritten") {
      // Written, so counted, even when the snapshot then failed (its
      // checkpoint was taken, so counted too).
      snapshot_records += Field(line.detail, "records");
    } else if (line.kind == "log.append") {
      ++records;
    } else if (line.kind == "put.issued") {
      issued_at[PutIdentity(line)] = line.time_ms;
    } else if (line.kind == "put.ok") {
      auto issued = issued_at.find(PutIdentity(line));
      DURASIM_CHECK(issued != issued_at.end());  // every acknowledged put was issued in its attempt
      put_latency_us.push_back(std::llround((line.time_ms - issued->second) * 1000));
      issued_at.erase(issued);
    }
  }
  for (const auto& [index, record] : report.record_lines) {
    // Appended records only: a restore's reads are kept here too.
    if (Parse(report.trace.line(index)).kind != "log.append") continue;
    bytes += static_cast<int64_t>(record.key.size() + record.value.size());
  }
  for (const RestoreScan& scan : report.restore_scans) {
    ++restores;
    scanned += scan.records_scanned;
    restore_wall_us.push_back(scan.wall_us);
  }
}

double DesignCosts::SnapshotRecordsPerCheckpoint() const {
  return checkpoints == 0 ? 0 : static_cast<double>(snapshot_records) / static_cast<double>(checkpoints);
}

double DesignCosts::ScannedPerRestore() const {
  return restores == 0 ? 0 : static_cast<double>(scanned) / static_cast<double>(restores);
}

namespace {

// The nearest-rank `percent`th percentile of `values` in microseconds, as
// ms: the smallest value with at least percent% at or below it (0 when
// there are none).
double PercentileMs(std::vector<int64_t> values, double percent) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(values.size()));
  const auto index = static_cast<size_t>(std::max(rank, 1.0)) - 1;
  DURASIM_CHECK_LT(index, values.size());  // percent is within (0, 100]
  return static_cast<double>(values[index]) / 1000.0;
}

}  // namespace

double DesignCosts::PutLatencyMs(double percent) const { return PercentileMs(put_latency_us, percent); }

double DesignCosts::RestoreWallMs(double percent) const { return PercentileMs(restore_wall_us, percent); }

Scenario ComparisonScenario(uint64_t seed, WorkloadShape shape, StoreDesign design, int density) {
  Scenario scenario = GenerateFromSeed(seed, design).scenario;
  // The same workload and faults on every design: what one design cannot
  // run (fluss: tombstones and the log operations a Fluss table has none
  // of) is left out of every design's run, and so are faults aimed at one
  // design's own writes (a rewrite), so that a difference in cost is the
  // design's, not its workload's.
  for (StoreDesign other : AllOf<StoreDesign>()) FitToDesign(scenario, other);
  DropRewriteArms(scenario);
  scenario = Reshaped(std::move(scenario), shape, density);
  scenario.name = fmt::format("seed_{}_{}", seed, NameOf(shape));
  DURASIM_CHECK(!NotRunnableOn(scenario, StoreDesign::kFluss).has_value());  // no shape adds what fluss cannot run
  return scenario;
}

namespace {

DesignCosts RunDesign(const ComparisonOptions& options, WorkloadShape shape, StoreDesign design, int density) {
  RunOptions run;
  run.backend = options.backend;
  run.bootstrap_servers = options.bootstrap_servers;
  run.compare_model = options.compare_model;
  run.record_lines = true;
  run.time_restores = true;
  DesignCosts costs;
  for (uint64_t seed = options.seed_start; seed < options.seed_start + options.seeds && !Interrupted(); ++seed) {
    const RunReport report = RunScenario(ComparisonScenario(seed, shape, design, density), run);
    if (Interrupted() && report.verdict == Verdict::kInfra) break;  // abandoned midway: no cost of a whole run
    costs.Add(report);
  }
  return costs;
}

}  // namespace

std::vector<ComparisonRow> CompareStores(const ComparisonOptions& options) {
  const std::vector<WorkloadShape> shapes = options.shapes.empty() ? AllOf<WorkloadShape>() : options.shapes;
  std::vector<ComparisonRow> rows;
  for (WorkloadShape shape : shapes) {
    for (StoreDesign design : AllOf<StoreDesign>()) {
      if (Interrupted()) return rows;
      rows.push_back(ComparisonRow{shape, design, RunDesign(options, shape, design, 1)});
    }
  }
  return rows;
}

std::string ComparisonTable(const std::vector<ComparisonRow>& rows) {
  std::string out =
      "| shape | design | runs | not as expected | infra | checkpoints | snapshot records / checkpoint | records | "
      "bytes | "
      "restores | scanned / restore | restore p50 ms | restore p99 ms | put p50 ms | put p99 ms |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const ComparisonRow& row : rows) {
    const DesignCosts& c = row.costs;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {:.2f} | {} | {} | {} | {:.1f} | {:.3f} | {:.3f} | {:.1f} | "
                       "{:.1f} |\n",
                       NameOf(row.shape), NameOf(row.design), c.runs, c.not_as_expected, c.infra, c.checkpoints,
                       c.SnapshotRecordsPerCheckpoint(), c.records, c.bytes, c.restores, c.ScannedPerRestore(),
                       c.RestoreWallMs(50), c.RestoreWallMs(99), c.PutLatencyMs(50), c.PutLatencyMs(99));
  }
  return out;
}

std::string ComparisonJson(const std::vector<ComparisonRow>& rows, bool interrupted) {
  nlohmann::json out = nlohmann::json::array();
  for (const ComparisonRow& row : rows) {
    const DesignCosts& c = row.costs;
    out.push_back({{"shape", NameOf(row.shape)}, {"design", NameOf(row.design)}, {"runs", c.runs},
                   {"not_as_expected", c.not_as_expected}, {"infra", c.infra}, {"checkpoints", c.checkpoints},
                   {"snapshot_records", c.snapshot_records}, {"records", c.records}, {"bytes", c.bytes},
                   {"restores", c.restores}, {"scanned", c.scanned}, {"restore_wall_p50_ms", c.RestoreWallMs(50)},
                   {"restore_wall_p99_ms", c.RestoreWallMs(99)}, {"put_p50_ms", c.PutLatencyMs(50)},
                   {"put_p99_ms", c.PutLatencyMs(99)}});
  }
  return nlohmann::json{{"rows", out}, {"interrupted", interrupted}}.dump(2) + "\n";
}

std::string CheckpointCostChart(const ComparisonOptions& options) {
  LineChart chart{"Snapshot cost and replay cost as checkpoints grow", "checkpoints per run (mean)",
                  "records per run (mean)", {}};
  const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  size_t color = 0;
  for (StoreDesign design : AllOf<StoreDesign>()) {
    ChartSeries written{fmt::format("{}: written at snapshots", NameOf(design)), colors[color % 4], false, {}};
    ChartSeries scanned{fmt::format("{}: scanned by restores", NameOf(design)), colors[color % 4], true, {}};
    ++color;
    for (int density = 0; density <= 4; ++density) {
      const DesignCosts c = RunDesign(options, WorkloadShape::kFrequentCheckpoints, design, density);
      const double runs = static_cast<double>(std::max<int64_t>(c.runs, 1));
      const double x = static_cast<double>(c.checkpoints) / runs;
      written.points.emplace_back(x, static_cast<double>(c.snapshot_records) / runs);
      scanned.points.emplace_back(x, static_cast<double>(c.scanned) / runs);
    }
    chart.series.push_back(std::move(written));
    chart.series.push_back(std::move(scanned));
  }
  return LineChartSvg(chart);
}

}  // namespace durasim
