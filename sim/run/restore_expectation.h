// `expect: restores:`, `expect: checkpoints:` and `expect: completions:`
// (docs/scenarios.md "What a restore reads"): the recovery markers
// checkpoints saved; per restore the marker a subtask rebuilt from, what its
// store caches after the rebuild, and a rejection's message; what a store
// caches right after a completion notice. The judgement names the first
// difference and the file position of the entry it breaks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/checkpoint.h"
#include "model/scenario.h"
#include "model/world.h"

namespace durasim {

// The first way the run's restores (`rebuilt`, in the order they happened)
// differ from what `scenario.expect.restores` states, in words; none when
// they agree.
std::optional<std::string> FirstRestoreDifference(const Scenario& scenario,
                                                  const std::vector<World::Rebuilt>& rebuilt);

// The first way what the stores cached right after completion notices
// (`pruned`, in the order they came) differs from what
// `scenario.expect.completions` states; none when they agree.
std::optional<std::string> FirstCompletionDifference(const Scenario& scenario,
                                                     const std::vector<World::Pruned>& pruned);

// The first way the checkpoints' saved markers differ from what
// `scenario.expect.checkpoints` states; none when they agree.
std::optional<std::string> FirstCheckpointDifference(const Scenario& scenario, CheckpointStorage& checkpoints);

}  // namespace durasim
