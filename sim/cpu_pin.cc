// CpuPins implementation (Linux: sched_getaffinity, sched_getcpu).
#include "sim/cpu_pin.h"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "store/check.h"

namespace durasim {

bool PinsThreads(BackendKind backend, bool cpu_pin) { return cpu_pin && backend == BackendKind::kMock; }

std::vector<int> CallingThreadCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::vector<int> StartingAt(std::vector<int> cpus, int here) {
  if (const auto at = std::find(cpus.begin(), cpus.end(), here); at != cpus.end()) {
    std::rotate(cpus.begin(), at, cpus.end());
  }
  return cpus;
}

CpuPins CpuPins::FromCallingThread() { return CpuPins(StartingAt(CallingThreadCpus(), sched_getcpu())); }

CpuPins::CpuPins(std::vector<int> cpus) : cpus_(std::move(cpus)) {
  std::vector<int> sorted = cpus_;
  std::sort(sorted.begin(), sorted.end());
  DURASIM_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());  // each CPU once
}

Result<int> CpuPins::Pin(int slot) const {
  DURASIM_CHECK_GE(slot, 0);
  if (cpus_.empty()) return Status(StatusCode::kUnavailable, "the CPUs this process may use are not known");
  const int cpu = cpus_[static_cast<size_t>(slot) % cpus_.size()];
  DURASIM_CHECK(0 <= cpu && cpu < CPU_SETSIZE);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    return Status(StatusCode::kUnavailable, fmt::format("pinning a thread to CPU {}: {}", cpu, std::strerror(errno)));
  }
  return cpu;
}

}  // namespace durasim
