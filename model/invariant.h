// Invariant: what the checkers hold a run to (docs/scenarios.md lists them),
// named as scenario files, traces and reports write them.
#pragma once

#include <optional>

#include "model/enum_table.h"

namespace durasim {

enum class Invariant {
  kOnce,
  kFinished,
  kSameAnswer,
  kPhantomSave,
  kCancellation,
  kInvalidRecovery,
  kBoundedMemory,
  kPutLatency,
  kLiveness,
  kDifferential,
  kDeterminism,
  kRetryBudget,
  kProvenance,
  kOwnership,
  kReconcile,
};

std::optional<EnumInfo> EnumInfoOf(Invariant invariant);

// Whether a scenario file may expect it to be violated. Not determinism: a
// scenario's run is checked for it only on request (--check-determinism),
// and a deterministic harness gives nothing to reproduce.
bool ExpectableInScenario(Invariant invariant);

}  // namespace durasim
