// Tests of the background destroyer (rdkafka_reaper.h).
#include "store/rdkafka_reaper.h"

#include <gtest/gtest.h>

#include <vector>

namespace durasim::rdkafka {
namespace {

// A producer with no broker to reach: librdkafka starts its threads all the
// same, and rd_kafka_thread_cnt counts them until it is destroyed.
rd_kafka_t* IdleProducer() {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[256];
  rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr);  // no "no bootstrap.servers" warning
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  EXPECT_NE(rk, nullptr) << errstr;
  return rk;
}

// Strategy: more handles than may wait at once (so the caller waits for
// room at least once) are handed over; once the drain returns, every one of
// them was destroyed: librdkafka's own count of its threads is back where it
// was before they were made.
TEST(ReaperTest, EveryHandleHandedOverIsDestroyedByTheDrain) {
  const int threads_before = rd_kafka_thread_cnt();
  std::vector<rd_kafka_t*> handles;
  for (int i = 0; i < kPendingDestroysMax + 8; ++i) handles.push_back(IdleProducer());
  ASSERT_GT(rd_kafka_thread_cnt(), threads_before);
  for (rd_kafka_t* rk : handles) DestroyInBackground(rk);
  AwaitBackgroundDestroys();
  EXPECT_EQ(rd_kafka_thread_cnt(), threads_before);
}

}  // namespace
}  // namespace durasim::rdkafka
