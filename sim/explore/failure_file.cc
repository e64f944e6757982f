// Failure file implementation.
#include "sim/explore/failure_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "sim/report.h"
#include "sim/scenario_writer.h"

namespace durasim {

Scenario FailingScenario(const Scenario& generated, const std::optional<std::string>& mutant, ExpectedVerdict filed) {
  Scenario failing = generated;
  failing.mutant = mutant;
  failing.expect = Expectation{};
  failing.expect.verdict = filed;
  // A generated scenario's faults are armed blind: the file may keep an arm
  // that never fires (the shrinker drops those it can).
  failing.expect.allow_unfired = generated.expect.allow_unfired;
  return failing;
}

ShrinkResult ShrinkFailure(const Scenario& failing, const RunOptions& options, double budget_s) {
  const auto budget = std::chrono::milliseconds(static_cast<int64_t>(budget_s * 1000));
  ShrinkResult shrunk = Shrink(failing, options, failing.expect.verdict, budget);
  shrunk.scenario.name = failing.name;
  shrunk.scenario.mutant = failing.mutant;
  shrunk.scenario.expect = failing.expect;
  return shrunk;
}

std::string ReplayLine(uint64_t seed, const std::optional<std::string>& mutant, const std::string& backend_flags) {
  return fmt::format("replay the generated run: build/durasim replay --seed {}{}{}", seed,
                     mutant ? " --mutant " + *mutant : "", backend_flags);
}

std::string FirstViolationLine(const std::string& message) {
  return fmt::format("first violation: {}", message.substr(0, message.find('\n')));
}

void WriteFailureFile(const std::string& path, const Scenario& scenario, const std::vector<std::string>& header) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  const Status written = WriteFile(path, WriteScenarioYaml(scenario, header));
  if (!written.ok()) std::cerr << "durasim: " << written.message() << "\n";
}

}  // namespace durasim
