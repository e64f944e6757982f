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

// Where a step drawn at index `drawn` of an attempt's steps goes: in an
// attempt that starts a job (no restore: the first, or DrawBlame's new
// job), never before its opening checkpoint completes, so every later
// attempt has a checkpoint of that job to restore.
inline size_t NotBeforeOpening(const AttemptSpec& attempt, size_t drawn) {
  const std::vector<AttemptStep>& steps = attempt.steps;
  const size_t at = attempt.restore ? drawn : std::max(drawn, static_cast<size_t>(AfterFirstCompletion(steps)));
  return std::min(at, steps.size());
}

}  // namespace durasim
