// The exit codes of every durasim command, in one place: scripts and CI
// read them (docs/exploring.md), so their numbers never change.
#pragma once

namespace durasim {

inline constexpr int kExitOk = 0;
// run, replay: a run did not match its expectation; mutants: a mutant
// survived or was caught by another invariant, or the production code failed.
inline constexpr int kExitNotAsExpected = 1;
// explore, merge-reports: an invariant was violated (the same number).
inline constexpr int kExitViolation = kExitNotAsExpected;
inline constexpr int kExitUsage = 2;        // a usage or input error
inline constexpr int kExitLiveness = 3;     // explore: a run was stuck
inline constexpr int kExitDeterminism = 4;  // explore: a seed gave two traces
inline constexpr int kExitError = 5;        // explore: a run ended in error
inline constexpr int kExitCoverage = 6;     // explore --require-coverage: a fault kind never fired

}  // namespace durasim
