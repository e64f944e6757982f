// World implementation.
#include "model/world.h"

#include "model/backends/memory_log_backend.h"
#include "model/backends/start_backend.h"
#include "store/check.h"

namespace durasim {

World::World(const Scenario& scenario, Trace::Text text)
    : scenario_(scenario),
      trace_(text),
      log_(scenario.log.partitions),
      lifecycle_(scenario.log.partitions),
      suppliers_(scenario.suppliers),
      backend_(std::make_unique<MemoryLogBackend>(log_, scenario.log)) {}

Status World::StartBackend(BackendKind backend, const std::string& bootstrap_servers, const std::string& topic_name) {
  DURASIM_CHECK_EQ(attempt_, 0);
  Result<std::unique_ptr<LogBackend>> started = StartLogBackend(
      backend, bootstrap_servers,
      RunLog{scenario_.log, log_, corrupted_, lifecycle_, scenario_.PartitionsMax(), topic_name});
  if (!started.ok()) return started.status();
  backend_ = std::move(started).value();
  return Status::Ok();
}

void World::BeginAttempt(int attempt) {
  attempt_ = attempt;
  halted_ = false;
  const PlanSpec* plan = scenario_.DeployedPlan(attempt);
  if (plan != plan_) {
    // A new version of the agent: the outside world keeps what it counted.
    plan_ = plan;
    suppliers_.Deploy(plan_ != nullptr ? plan_->suppliers : scenario_.suppliers);
  }
  if (plan_ != nullptr) CountFault(CoveragePoint::Reached(WorldFeature::kPlanDeployed));
  if (attempt == 1) {
    for (KeyShape shape : KeyShapesOf(scenario_.inputs)) CountFault(CoveragePoint::Shaped(shape));
    if (HasTypedKeyTwins(scenario_.inputs)) CountFault(CoveragePoint::Reached(WorldFeature::kTypedKeyTwins));
  }
  Notify([&](RunObserver& o) { o.OnAttemptStart(attempt); });
}

void World::EnterLineage(int lineage) {
  DURASIM_CHECK_GE(lineage, 1);
  DURASIM_CHECK_LE(lineage, attempt_);
  lineage_ = lineage;
  lineage_of_attempt_[attempt_] = lineage;
  Notify([&](RunObserver& o) { o.OnLineage(lineage); });
}

std::vector<World::ForeignRead> World::ForeignInRange(const MarkerOffsets& marker, int lineage,
                                                      int checkpoint_attempt) const {
  auto in_range = [&](int32_t partition, int64_t offset) {
    auto from = marker.find(partition);
    return from == marker.end() || offset >= from->second;
  };
  std::map<std::pair<int32_t, int64_t>, ForeignRead> found;
  for (const auto& [at, key] : foreign_) {
    if (in_range(at.first, at.second)) found[at] = ForeignRead{attempt_, lineage, 0, at.first, at.second, key};
  }
  for (const auto& [at, writer] : writer_lineage_) {
    if (writer.lineage == lineage || writer.attempt <= checkpoint_attempt || !in_range(at.first, at.second)) continue;
    found[at] = ForeignRead{attempt_, lineage, writer.lineage, at.first, at.second, writer.key};
  }
  std::vector<ForeignRead> reads;
  for (auto& [at, read] : found) reads.push_back(std::move(read));
  return reads;
}

std::map<std::string, int64_t> World::fault_hits() const {
  std::map<std::string, int64_t> by_name;
  for (const auto& [point, hits] : fault_hits_) by_name[point.Name()] += hits;
  return by_name;
}

Result<std::vector<std::vector<LogRecord>>> World::ReadLog() {
  Result<std::vector<std::vector<LogRecord>>> all = backend_->ReadAll();
  if (all.ok()) {
    for (std::vector<LogRecord>& partition : *all) ApplyCorruption(corrupted_, partition);
  }
  return all;
}

}  // namespace durasim
