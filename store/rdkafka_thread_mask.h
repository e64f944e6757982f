// Thread masks: the CPUs a thread may run on. The librdkafka client's kept
// threads (the query threads, the reaper) serve every caller and take each
// caller's mask with its work: a caller pinned to one CPU with its handles'
// threads would otherwise have its work done on whichever CPU the kept
// thread's first caller had. The simulator pins its workers with the same
// calls (sim/cpu_pin.h).
//
// Thread-safety: each function acts on the calling thread only.
#pragma once

#include <sched.h>

#include <optional>
#include <vector>

#include "store/status.h"

namespace durasim::rdkafka {

// The calling thread's mask; nullopt when it cannot be read.
std::optional<cpu_set_t> CallingThreadMask();

// The CPUs in `mask`, ascending.
std::vector<int> CpusOf(const cpu_set_t& mask);

// The mask of `cpu` alone. REQUIRES: 0 <= cpu < CPU_SETSIZE.
cpu_set_t MaskOfCpu(int cpu);

// Sets the calling thread's mask. Errors: kUnavailable, with the kernel's
// reason (a CPU this machine or this container lacks).
[[nodiscard]] Status SetCallingThreadMask(const cpu_set_t& mask);

// Moves the calling thread onto `wanted` unless `current` (what the thread
// runs under, as last set or read) is it already; `current` is then what is
// in force. Nothing wanted, or a mask the kernel refuses: the thread stays
// where it is (the work runs all the same).
void AdoptMask(const std::optional<cpu_set_t>& wanted, std::optional<cpu_set_t>& current);

}  // namespace durasim::rdkafka
