// Interrupts: SIGINT and SIGTERM set a flag (sigaction, async-signal-safe)
// instead of killing the process. The sweep, the kill matrix and `run` stop
// starting new runs once it is set, let the running ones finish, write every
// failure file and report (marked interrupted) and exit 128 + the signal
// (130, 143: sim/exit_codes.h). The handler is installed with SA_RESETHAND:
// a second signal kills the process as usual.
//
// What an interrupt changes is only how many seeds or files ran: each run
// that ran is the same as without it.
#pragma once

namespace durasim {

// Installs the handlers for SIGINT and SIGTERM.
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
