// Failure file implementation.
#include "sim/explore/failure_file.h"

#include <iostream>

#include "sim/output_file.h"
#include "sim/scenario/scenario_writer.h"
#include "store/format.h"

namespace durasim {

ExpectedVerdict FailureExpectation(const std::optional<std::string>& mutant, ExpectedVerdict failure) {
  return mutant.has_value() ? failure : ExpectedVerdict::Pass();
}

Scenario FailingScenario(const Scenario& generated, const std::optional<std::string>& mutant, ExpectedVerdict failure) {
  Scenario failing = generated;
  failing.mutant = mutant;
  failing.expect = Expectation{};
  failing.expect.verdict = FailureExpectation(mutant, failure);
  // A generated scenario's faults are armed blind: the file may keep an arm
  // that never fires (the shrinker drops those it can).
  failing.expect.allow_unfired = generated.expect.allow_unfired;
  return failing;
}

ShrinkResult ShrinkFailure(const Scenario& failing, const RunOptions& options, ExpectedVerdict failure,
                           double budget_s) {
  const auto budget = std::chrono::milliseconds(static_cast<int64_t>(budget_s * 1000));
  ShrinkResult shrunk = Shrink(failing, options, failure, budget);
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

std::vector<std::string> ExpectationLines(const std::string& path, const std::optional<std::string>& mutant,
                                          ExpectedVerdict failure, const std::string& run_flags) {
  const std::string run = fmt::format("build/durasim run{} {}", run_flags, path);
  if (!mutant.has_value()) {
    return {
        fmt::format("expect: pass: the production code showed {}; this file fails until the bug is fixed, then "
                    "guards against it",
                    failure.name()),
        fmt::format("confirm the failure: {}   (exits 1 with {} while the bug is there)", run, failure.name()),
        fmt::format("as a regression: copy it to scenarios/regressions/ and run build/durasim run{} scenarios/   "
                    "(passes once the bug is fixed)",
                    run_flags),
    };
  }
  return {
      fmt::format("expect: {}: mutant {} must be caught by it; this file passes as long as the harness catches it",
                  failure.name(), *mutant),
      fmt::format("confirm the failure: {}   (exits 0: the mutant shows {})", run, failure.name()),
      fmt::format("as a regression: copy it to scenarios/negative/ and run build/durasim run{} scenarios/", run_flags),
  };
}

Status WriteFailureFile(const std::string& path, const Scenario& scenario, const std::vector<std::string>& header) {
  const std::string yaml = WriteScenarioYaml(scenario, header);
  const Status written = WriteFileCreatingFolder(path, yaml);
  if (!written.ok()) {
    std::cerr << "durasim: " << written.message() << "; the failing scenario follows instead:\n"
              << yaml << "# end of the failing scenario that could not be written to " << path << "\n"
              << std::flush;
  }
  return written;
}

}  // namespace durasim
