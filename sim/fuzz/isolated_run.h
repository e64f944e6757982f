// IsolatedRun: runs one fuzz input in a child process (fork), so that a
// crash, a sanitizer report, a hang or a memory blowup is seen from outside
// and reported with its input instead of taking the fuzzer down. The parent
// watches the child's wall time and resident memory and kills it at the
// bound; the child's stderr goes to a file the report quotes.
//
// Not deterministic by nature (wall time), and outside the deterministic
// folders: what it runs is deterministic, how long that takes is not.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/fuzz/fuzz_targets.h"

namespace durasim {

struct IsolationLimits {
  int64_t timeout_ms = 5000;   // per input, wall time
  int64_t memory_mb = 2048;    // per input, resident set
  // Asked at every poll of the child: true kills it (kStopped), a signal
  // to the campaign (nullptr: never).
  bool (*stop_requested)() = nullptr;
};

struct IsolatedResult {
  enum class Kind {
    kDone,     // the body returned (its TargetResult may hold a problem)
    kCrash,    // died by a signal, or exited without returning (a sanitizer report, abort, exit)
    kTimeout,  // killed at timeout_ms
    kMemory,   // killed at memory_mb
    kStopped,  // killed because the campaign was asked to stop: no outcome
  };
  Kind kind = Kind::kDone;
  TargetResult result;          // kDone
  int exit_code = -1;           // exited: its code; -1 when signalled
  int signal = 0;               // signalled: which
  int64_t wall_ms = 0;
  int64_t peak_rss_mb = 0;      // as sampled
  std::string stderr_text;      // the child's stderr (its last 8 KiB)
  std::string stderr_head;      // its first 8 KiB (where a CLI's first error line is)
};

const char* IsolatedKindName(IsolatedResult::Kind kind);

// Runs `body` in a forked child under `limits`; its stderr goes to
// `stderr_path` (overwritten).
IsolatedResult RunIsolated(const std::function<TargetResult()>& body, const IsolationLimits& limits,
                           const std::string& stderr_path);

// Runs the program `argv` (argv[0] a path) in a child, stdout discarded,
// under `limits`; kDone with exit_code set when it exited.
IsolatedResult RunProgram(const std::vector<std::string>& argv, const IsolationLimits& limits,
                          const std::string& stderr_path);

}  // namespace durasim
