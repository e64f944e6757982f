// World implementation.
#include "model/world.h"

namespace durasim {

World::World(const Scenario& scenario)
    : scenario_(scenario),
      log_(scenario.log.partitions),
      memory_backend_(log_, scenario.log),
      suppliers_(scenario.suppliers) {}

void World::BeginAttempt(int attempt) {
  attempt_ = attempt;
  halted_ = false;
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
