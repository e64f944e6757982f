// Tests of thread masks (rdkafka_thread_mask.h): a thread adopts the mask
// it is handed, keeps its own when none is handed or the kernel refuses
// one, and says which mask is in force.
#include "store/rdkafka_thread_mask.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace durasim::rdkafka {
namespace {

// Whether the calling thread runs under exactly `set`.
bool RunsUnder(const cpu_set_t& set) {
  const std::optional<cpu_set_t> now = CallingThreadMask();
  return now.has_value() && CPU_EQUAL(&*now, &set);
}

// Strategy: on a thread of its own, nothing handed, a one-CPU mask, a mask
// of a CPU this machine lacks, and its own mask again, each checked against
// what the kernel says the thread runs under.
TEST(ThreadMaskTest, AThreadAdoptsTheHandedMaskAndKeepsItsOwnOtherwise) {
  std::thread([] {
    const std::optional<cpu_set_t> own = CallingThreadMask();
    ASSERT_TRUE(own.has_value());
    const std::vector<int> cpus = CpusOf(*own);
    ASSERT_FALSE(cpus.empty());
    const int cpu = cpus.front();
    EXPECT_EQ(CpusOf(MaskOfCpu(cpu)), std::vector<int>{cpu});

    std::optional<cpu_set_t> current = own;
    AdoptMask(std::nullopt, current);  // nothing handed: as it was
    EXPECT_TRUE(RunsUnder(*own));

    const std::optional<cpu_set_t> one = MaskOfCpu(cpu);
    AdoptMask(one, current);
    EXPECT_TRUE(RunsUnder(*one));
    EXPECT_TRUE(CPU_EQUAL(&*current, &*one));

    // A CPU the kernel refuses (none this machine has): the thread and
    // `current` stay on the last mask.
    if (!CPU_ISSET(CPU_SETSIZE - 1, &*own)) {
      const Status refused = SetCallingThreadMask(MaskOfCpu(CPU_SETSIZE - 1));
      EXPECT_EQ(refused.code(), StatusCode::kUnavailable);
      EXPECT_FALSE(refused.message().empty());  // the kernel's reason
      AdoptMask(MaskOfCpu(CPU_SETSIZE - 1), current);
      EXPECT_TRUE(RunsUnder(*one));
      EXPECT_TRUE(CPU_EQUAL(&*current, &*one));
    }

    AdoptMask(own, current);  // and back
    EXPECT_TRUE(RunsUnder(*own));
  }).join();
}

}  // namespace
}  // namespace durasim::rdkafka
