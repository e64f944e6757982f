// Thread masks: the CPUs a thread may run on, handed from a thread that
// gives work away to the kept thread that does it. The librdkafka client's
// kept threads (the query threads, the reaper) serve every caller; a caller
// pinned to one CPU with its handles' threads would otherwise have its work
// done on whichever CPU the kept thread's first caller had.
//
// Thread-safety: each function acts on the calling thread only.
#pragma once

#include <sched.h>

#include <optional>

namespace durasim::rdkafka {

// The calling thread's mask; nullopt when it cannot be read.
std::optional<cpu_set_t> CallingThreadMask();

// Moves the calling thread onto `wanted` unless `current` (what the thread
// runs under, as last set or read) is it already; `current` is then what is
// in force. Nothing wanted, or a mask the kernel refuses: the thread stays
// where it is (the work runs all the same).
void AdoptMask(const std::optional<cpu_set_t>& wanted, std::optional<cpu_set_t>& current);

}  // namespace durasim::rdkafka
