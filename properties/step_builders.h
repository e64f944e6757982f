// Attempt steps as the generators build them (properties/scenario_generator.cc,
// properties/aimed_points.cc): a step of a kind, a checkpoint step, and where
// the job's opening checkpoint completes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "store/check.h"

namespace durasim {

inline AttemptStep Step(AttemptStep::Kind kind) {
  AttemptStep step;
  step.kind = kind;
  return step;
}

inline AttemptStep CheckpointStep(AttemptStep::Kind kind, const std::string& id) {
  AttemptStep step = Step(kind);
  step.checkpoint = id;
  return step;
}

// Just after the first checkpoint completion of an attempt's steps (the
// job's opening one, in its first attempt). REQUIRES: one completes.
inline std::ptrdiff_t AfterFirstCompletion(const std::vector<AttemptStep>& steps) {
  const auto completed = std::find_if(steps.begin(), steps.end(), [](const AttemptStep& step) {
    return step.kind == AttemptStep::Kind::kComplete;
  });
  DURASIM_CHECK(completed != steps.end());  // AttemptBuilder: the opening checkpoint completes
  return completed - steps.begin() + 1;
}

// Where a step drawn at index `drawn` of attempt `attempt`'s steps goes:
// never before the job's opening checkpoint completes (in the first
// attempt), so every later attempt has a checkpoint to restore.
inline size_t NotBeforeOpening(size_t attempt, const std::vector<AttemptStep>& steps, size_t drawn) {
  const size_t at = attempt == 0 ? std::max(drawn, static_cast<size_t>(AfterFirstCompletion(steps))) : drawn;
  return std::min(at, steps.size());
}

}  // namespace durasim
