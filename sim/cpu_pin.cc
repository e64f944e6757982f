// CpuPins implementation (Linux: sched_getaffinity, sched_getcpu).
#include "sim/cpu_pin.h"

#include <sched.h>

#include <algorithm>
#include <iostream>

#include "store/check.h"
#include "store/format.h"
#include "store/rdkafka_thread_mask.h"

namespace durasim {

bool PinsThreads(BackendKind backend, bool cpu_pin) { return cpu_pin && backend == BackendKind::kMock; }

std::vector<int> CallingThreadCpus() {
  const std::optional<cpu_set_t> mask = rdkafka::CallingThreadMask();
  return mask ? rdkafka::CpusOf(*mask) : std::vector<int>{};
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
  if (const Status set = rdkafka::SetCallingThreadMask(rdkafka::MaskOfCpu(cpu)); !set.ok()) {
    return Status(set.code(), fmt::format("pinning a thread to CPU {}: {}", cpu, set.message()));
  }
  return cpu;
}

void PinWorker(const CpuPins& pins, int worker, std::string_view command, std::once_flag& refusal_said) {
  const Result<int> cpu = pins.Pin(worker);
  if (cpu.ok()) return;
  std::call_once(refusal_said, [&] {
    std::cerr << fmt::format("{}: {}; worker {} runs unpinned (slower on the mock backend)\n", command,
                             cpu.status().message(), worker);
  });
}

}  // namespace durasim
