// Interrupts: SIGINT and SIGTERM set a flag (sigaction, async-signal-safe)
// instead of killing the process. The sweep, the kill matrix and `run` stop
// starting new runs once it is set; a run in progress is abandoned within
// about a millisecond of simulated work (model/abandon.h) and reported not
// judged (verdict infra, "interrupted"); every failure file and report is
// written (marked interrupted) and the process exits 128 + the signal
// (130, 143: sim/exit_codes.h). The handler is installed with SA_RESETHAND:
// a second signal kills the process as usual.
//
// What an interrupt changes is only how many seeds or files ran: each run
// that ran is the same as without it.
#pragma once

namespace durasim {

// Installs the handlers for SIGINT and SIGTERM, and makes a signal abandon
// the run in progress (model/abandon.h).
void InstallInterruptHandlers();

// Whether a signal arrived; which (0: none).
bool Interrupted();
int InterruptSignal();

// 128 + the signal. REQUIRES: Interrupted().
int InterruptExitCode();

// "SIGINT", "SIGTERM" or "signal N". REQUIRES: Interrupted().
const char* InterruptName();

// Sets the flag as the signal would (tests).
void RequestInterrupt(int signal);

}  // namespace durasim
