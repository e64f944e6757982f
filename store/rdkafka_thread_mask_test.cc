// Tests of thread masks (rdkafka_thread_mask.h): a thread adopts the mask
// it is handed, keeps its own when none is handed or the kernel refuses
// one, and says which mask is in force.
#include "store/rdkafka_thread_mask.h"

#include <gtest/gtest.h>

#include <thread>

namespace durasim::rdkafka {
namespace {

cpu_set_t OneCpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return set;
}

// Whether the calling thread runs under exactly `set`.
bool RunsUnder(const cpu_set_t& set) {
  const std::optional<cpu_set_t> now = CallingThreadMask();
  return now.has_value() && CPU_EQUAL(&*now, &set);
}

// The lowest CPU in `set`.
int FirstCpu(const cpu_set_t& set) {
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) return cpu;
  }
  return -1;
}

// Strategy: on a thread of its own, nothing handed, a one-CPU mask, a mask
// of a CPU this machine lacks, and its own mask again, each checked against
// what the kernel says the thread runs under.
TEST(ThreadMaskTest, AThreadAdoptsTheHandedMaskAndKeepsItsOwnOtherwise) {
  std::thread([] {
    const std::optional<cpu_set_t> own = CallingThreadMask();
    ASSERT_TRUE(own.has_value());
    const int cpu = FirstCpu(*own);
    ASSERT_GE(cpu, 0);

    std::optional<cpu_set_t> current = own;
    AdoptMask(std::nullopt, current);  // nothing handed: as it was
    EXPECT_TRUE(RunsUnder(*own));

    const std::optional<cpu_set_t> one = OneCpu(cpu);
    AdoptMask(one, current);
    EXPECT_TRUE(RunsUnder(*one));
    EXPECT_TRUE(CPU_EQUAL(&*current, &*one));

    // A CPU the kernel refuses (none this machine has): the thread and
    // `current` stay on the last mask.
    if (!CPU_ISSET(CPU_SETSIZE - 1, &*own)) {
      AdoptMask(OneCpu(CPU_SETSIZE - 1), current);
      EXPECT_TRUE(RunsUnder(*one));
      EXPECT_TRUE(CPU_EQUAL(&*current, &*one));
    }

    AdoptMask(own, current);  // and back
    EXPECT_TRUE(RunsUnder(*own));
  }).join();
}

}  // namespace
}  // namespace durasim::rdkafka
