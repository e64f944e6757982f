// World implementation.
#include "model/world.h"

#include "model/backends/memory_log_backend.h"
#include "model/backends/start_backend.h"
#include "store/check.h"

namespace durasim {

World::World(const Scenario& scenario)
    : scenario_(scenario),
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
  Notify([&](RunObserver& o) { o.OnAttemptStart(attempt); });
}

size_t World::Record(std::string_view kind, std::string_view detail) {
  if (halted_) return trace_.size();
  return trace_.Add(clock_.now, attempt_, kind, detail);
}

Result<std::vector<std::vector<LogRecord>>> World::ReadLog() {
  Result<std::vector<std::vector<LogRecord>>> all = backend_->ReadAll();
  if (all.ok()) {
    for (std::vector<LogRecord>& partition : *all) ApplyCorruption(corrupted_, partition);
  }
  return all;
}

}  // namespace durasim
