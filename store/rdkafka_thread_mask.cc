// Thread masks (rdkafka_thread_mask.h), on Linux's sched_{get,set}affinity.
#include "store/rdkafka_thread_mask.h"

#include <cerrno>
#include <cstring>

#include "store/check.h"

namespace durasim::rdkafka {

std::optional<cpu_set_t> CallingThreadMask() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
  return set;
}

std::vector<int> CpusOf(const cpu_set_t& mask) {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
  }
  return cpus;
}

cpu_set_t MaskOfCpu(int cpu) {
  DURASIM_CHECK(0 <= cpu && cpu < CPU_SETSIZE);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return set;
}

Status SetCallingThreadMask(const cpu_set_t& mask) {
  if (sched_setaffinity(0, sizeof mask, &mask) == 0) return Status::Ok();
  return Status(StatusCode::kUnavailable, std::strerror(errno));
}

void AdoptMask(const std::optional<cpu_set_t>& wanted, std::optional<cpu_set_t>& current) {
  if (!wanted || (current && CPU_EQUAL(&*wanted, &*current))) return;
  if (SetCallingThreadMask(*wanted).ok()) current = wanted;
}

}  // namespace durasim::rdkafka
