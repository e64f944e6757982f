// The librdkafka client's background destroyer. rd_kafka_destroy joins a
// handle's threads (its main thread and one per broker connection) and
// takes about a millisecond; a run of the mock differential destroys a
// dozen handles, each at a crash or at an attempt's end, on the run's
// thread. The caller does what makes the destruction a crash at once (a
// producer's records purged; a consumer comes unclosed, with
// RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE: rdkafka_support.cc) and hands the
// handle over: from then on nothing uses it, no callback of it is served
// (rd_kafka_destroy serves none), and only its teardown is left, which
// happens here, in the order handed over.
//
// Internal to the client: only its .cc files and the mock cluster's include
// it (it pulls in librdkafka's header).
//
// Thread-safety: any thread may hand a handle over.
//
// A handle is torn down on its giver's CPUs (the giver's affinity mask,
// taken when it hands the handle over: rdkafka_thread_mask.h), beside the
// handle's own threads, which the teardown wakes and joins.
#pragma once

#include <librdkafka/rdkafka.h>

namespace durasim::rdkafka {

// The reaper thread's name (its tests find it by it).
inline constexpr const char* kReaperThreadName = "durasim-reaper";

// Destroys `rk` with rd_kafka_destroy_flags(rk, flags) on the reaper's
// thread, after every handle handed over before it. When
// kPendingDestroysMax handles wait already, the caller waits for room; it
// destroys `rk` itself, out of order, only when the reaper cannot run or
// has been stuck in one teardown for 10 s. REQUIRES: nothing uses `rk`
// after the call.
void DestroyInBackground(rd_kafka_t* rk, int flags = 0);

// Waits until every handle handed over so far is destroyed, 10 s at most
// (a teardown stuck in librdkafka must not hold the process for ever). The
// process does this at exit, so that no librdkafka thread outlives main's
// objects.
void AwaitBackgroundDestroys();

inline constexpr int kPendingDestroysMax = 64;

}  // namespace durasim::rdkafka
