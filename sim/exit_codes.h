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
// Any command: every run was as expected, but an output it was asked for (a
// failure file, --report-json, --junit, a shrunk file) could not be written;
// stderr names it. When a run also failed, that failure's code wins (the
// output is still named on stderr, and a failure file's scenario printed).
inline constexpr int kExitOutput = 7;
// run, replay, shrink, explore (with --backend mock|kafka): the broker could
// not be reached at the start (nothing ran), or runs ended `infra` (the
// broker failed in a way the harness did not inject: docs/backends.md) and
// nothing else failed; a sweep that met --infra-errors-max of them in a row
// stopped there. When a run also failed, that failure's code wins.
inline constexpr int kExitInfra = 8;
// explore, mutants, run: interrupted by SIGINT / SIGTERM (128 + the signal);
// the runs that had started finished and every report was written, marked
// interrupted (sim/interrupt.h).
inline constexpr int kExitSigint = 130;
inline constexpr int kExitSigterm = 143;

}  // namespace durasim
