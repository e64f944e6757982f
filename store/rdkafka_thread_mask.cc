// Thread masks (rdkafka_thread_mask.h), on Linux's sched_{get,set}affinity.
#include "store/rdkafka_thread_mask.h"

namespace durasim::rdkafka {

std::optional<cpu_set_t> CallingThreadMask() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
  return set;
}

void AdoptMask(const std::optional<cpu_set_t>& wanted, std::optional<cpu_set_t>& current) {
  if (!wanted || (current && CPU_EQUAL(&*wanted, &*current))) return;
  if (sched_setaffinity(0, sizeof(cpu_set_t), &*wanted) == 0) current = wanted;
}

}  // namespace durasim::rdkafka
