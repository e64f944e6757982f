// FirstRestoreDifference, FirstCompletionDifference, FirstCheckpointDifference
// (sim/run/restore_expectation.h).
#include "sim/run/restore_expectation.h"

#include <fmt/ranges.h>

#include <algorithm>

#include "sim/run/log_dump.h"
#include "sim/run/log_expectation.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

// How `got` differs from what `want` states, or none.
std::optional<std::string> MarkerDifference(const ExpectedMarker& want, const RecoveryMarker& got) {
  if (want.version && *want.version != got.version) return fmt::format("version {}, not {}", got.version, *want.version);
  if (want.topic && *want.topic != got.topic.name) {
    return fmt::format("topic {:?}, not {:?}", got.topic.name, *want.topic);
  }
  if (want.offsets && *want.offsets != got.offsets) return fmt::format("offsets {}, not {}", got.offsets, *want.offsets);
  if (want.completed && *want.completed != got.completed) {
    return fmt::format("completed boundaries {}, not {}", got.completed, *want.completed);
  }
  return std::nullopt;
}

std::optional<std::string> CacheDifference(const Scenario& scenario, const std::vector<ExpectedRecord>& want,
                                           const std::vector<std::pair<StateKey, ActionState>>& got) {
  const ActionNames names = ActionNamesOf(scenario);
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    DURASIM_CHECK(i == 0 || got[i - 1].first < got[i].first);  // in state key order
    DecodedRecord state;
    state.state_key = got[i].first;
    state.state = got[i].second;
    state.kind = KindOfState(state.state);
    if (std::optional<std::string> differs = RecordDifference(scenario, want[i], state, names)) {
      return fmt::format("cached state {} ({}) to match, but it is ({}): {}", i, FilePosition(scenario, want[i].pos),
                         DescribeRecord(state, names), *differs);
    }
  }
  if (want.size() != got.size()) {
    return fmt::format("the cache to hold {} state{}, but it holds {}", want.size(), want.size() == 1 ? "" : "s",
                       got.size());
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> FirstRestoreDifference(const Scenario& scenario,
                                                  const std::vector<World::Rebuilt>& rebuilt) {
  for (const ExpectedRestore& want : scenario.expect.restores) {
    DURASIM_CHECK(want.attempt >= 1 && want.subtask >= 0);  // the parser reads attempts from 1, subtasks from 0
    const auto it = std::find_if(rebuilt.begin(), rebuilt.end(), [&](const World::Rebuilt& r) {
      return r.attempt == want.attempt && r.subtask == want.subtask;
    });
    const std::string which = fmt::format("the restore of attempt {} subtask {} ({})", want.attempt, want.subtask,
                                          FilePosition(scenario, want.pos));
    if (it == rebuilt.end()) return fmt::format("expected {}, but it did not happen", which);
    if (want.marker) {
      if (std::optional<std::string> differs = MarkerDifference(*want.marker, it->marker)) {
        return fmt::format("expected {} to read from the marker stated at {}, but its marker has {}", which,
                           FilePosition(scenario, want.marker->pos), *differs);
      }
    }
    if (want.rejected) {
      if (it->status.ok()) return fmt::format("expected {} to be rejected, but it was accepted", which);
      if (it->status.message().find(*want.rejected) == std::string::npos) {
        return fmt::format("expected {} to be rejected with a message holding {:?}, but it was rejected with {}",
                           which, *want.rejected, it->status.ToString());
      }
    }
    if (want.cache) {
      if (std::optional<std::string> differs = CacheDifference(scenario, *want.cache, it->cache)) {
        return fmt::format("expected {}: {}", which, *differs);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> FirstCompletionDifference(const Scenario& scenario,
                                                     const std::vector<World::Pruned>& pruned) {
  for (const ExpectedCompletion& want : scenario.expect.completions) {
    const auto it = std::find_if(pruned.begin(), pruned.end(), [&](const World::Pruned& p) {
      return p.checkpoint == want.checkpoint && p.subtask == want.subtask;
    });
    const std::string which = fmt::format("the completion of {} at subtask {} ({})", want.checkpoint, want.subtask,
                                          FilePosition(scenario, want.pos));
    if (it == pruned.end()) {
      return fmt::format("expected {}, but no completion notice of it reached the subtask's store (notify: false, "
                         "a crash before it, or a completion in a later attempt than the one that took it)",
                         which);
    }
    if (std::optional<std::string> differs = CacheDifference(scenario, want.cache, it->cache)) {
      return fmt::format("expected {}: {}", which, *differs);
    }
  }
  return std::nullopt;
}

std::optional<std::string> FirstCheckpointDifference(const Scenario& scenario, CheckpointStorage& checkpoints) {
  for (const ExpectedCheckpoint& want : scenario.expect.checkpoints) {
    const std::string which = fmt::format("checkpoint {} ({})", want.id, FilePosition(scenario, want.pos));
    const Checkpoint* got = checkpoints.Find(want.id);
    if (got == nullptr || got->phase == Checkpoint::Phase::kFailed) {
      return fmt::format("expected {} to save markers, but it {}", which, got == nullptr ? "was never taken" : "failed");
    }
    if (got->markers.size() != want.markers.size()) {
      return fmt::format("expected {} to save {} marker{}, one per subtask, but it saved {}", which,
                         want.markers.size(), want.markers.size() == 1 ? "" : "s", got->markers.size());
    }
    for (size_t i = 0; i < want.markers.size(); ++i) {
      DURASIM_CHECK(got->markers[i].version == RecoveryMarker::kVersion);  // a store writes only the current form
      if (std::optional<std::string> differs = MarkerDifference(want.markers[i], got->markers[i])) {
        return fmt::format("expected {} marker {} ({}) to match, but it has {}", which, i,
                           FilePosition(scenario, want.markers[i].pos), *differs);
      }
    }
  }
  return std::nullopt;
}

}  // namespace durasim
