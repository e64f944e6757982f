// CPU pins: a worker that drives librdkafka's mock cluster keeps itself,
// and every thread it starts, on one CPU.
//
// Why: a run on the mock cluster is a chain of round trips between threads
// of this process (the caller's, each librdkafka handle's main and broker
// threads, the mock cluster's own), each a wake-up of another thread. On
// different CPUs every wake-up is an inter-processor interrupt, which on a
// virtual machine is an exit to the hypervisor; on one CPU it is a plain
// context switch. A thread starts with its creator's affinity, so pinning
// the worker before it makes its handles pins them all (the kept query
// threads take their caller's mask per call: store/rdkafka_query_threads.h).
// Measured on the 2-core CI machine (docs/benchmarks.md, "Issue 31, session
// 27"): `explore --backend mock --compare-model`, 2 jobs 78 -> 117 seeds/s;
// 1 job 44 -> 78 seeds/s on half the CPU time.
//
// Only the wall clock's threads are pinned (the mock backend, outside the
// determinism contract): a run's result never depends on it.
#pragma once

#include <mutex>
#include <string_view>
#include <vector>

#include "model/backends/backend_kind.h"
#include "store/status.h"

namespace durasim {

// The CPUs this process may run on, in the order workers take them: the
// one the creating thread runs on first (so that two processes started
// together tend to start on different CPUs), then the rest in order.
// Thread-safe to read once made.
class CpuPins {
 public:
  // The CPUs of the calling thread's affinity mask; none when it cannot be
  // read (then Pin refuses).
  static CpuPins FromCallingThread();
  // REQUIRES: `cpus` has no duplicates (tests).
  explicit CpuPins(std::vector<int> cpus);

  // Pins the calling thread to worker `slot`'s CPU: cpus()[slot % size].
  // Returns that CPU. Errors: kUnavailable (no CPU known, or the kernel
  // refused the mask).
  [[nodiscard]] Result<int> Pin(int slot) const;

  const std::vector<int>& cpus() const { return cpus_; }

 private:
  std::vector<int> cpus_;
};

// Pins the calling thread as worker `worker` of `command`'s pool; a pin the
// kernel refuses is said on stderr once per `refusal_said`, and the worker
// runs unpinned.
void PinWorker(const CpuPins& pins, int worker, std::string_view command, std::once_flag& refusal_said);

// Whether runs on `backend` pin the threads that drive them: only the mock
// cluster's, where every thread of a round trip is this process's. A model
// run has no threads to keep together (pinning it would only keep the
// kernel from moving it off a busy CPU); on a real broker (kafka, fluss)
// the round trips wait on the broker's process, and pinning measured no
// gain (docs/benchmarks.md). `cpu_pin`: --no-cpu-pin was not given.
bool PinsThreads(BackendKind backend, bool cpu_pin);

// `cpus` with `here` moved to the front and the rest after it in turn
// (rotated); unchanged when `here` is not among them.
std::vector<int> StartingAt(std::vector<int> cpus, int here);

// The CPUs the calling thread may run on now, ascending (tests).
std::vector<int> CallingThreadCpus();

}  // namespace durasim
