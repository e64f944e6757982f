// Abandoning a run: a process-wide request from outside the model (a signal:
// sim/interrupt.h) that a run in progress stop at once. The
// scheduler polls it every kAbandonPollHandlers handlers and, when it is
// set, throws RunAbandoned out of Scheduler::Run; the runner catches it
// and reports the run as not judged (sim/run/runner.cc). Without a request
// nothing changes: no run reads anything of it into its trace.
//
// Thread-safety: the source is installed once, before any run starts; runs
// on any thread may poll it.
#pragma once

#include <cstdint>

namespace durasim {

// Thrown by Scheduler::Run when abandoning was requested. Deliberately not
// a std::exception: the handlers that turn a coroutine's exception into an
// error of the run must let it through. The one exception that crosses a
// floor (STYLE.md says none does): a status could not leave the scheduler
// through every coroutine and attempt without touching each; it goes no
// further than RunScenario (sim/run/runner.h), which turns it into a report.
struct RunAbandoned {};

// Handlers run between two polls: about a millisecond of work.
inline constexpr uint64_t kAbandonPollHandlers = 1024;

// Installs what AbandonRequested asks (nullptr: never).
void SetAbandonSource(bool (*requested)());
// Whether the installed source asks to abandon runs.
bool AbandonRequested();

}  // namespace durasim
