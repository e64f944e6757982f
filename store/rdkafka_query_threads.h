// Threads for the client's calls that librdkafka 2.0.2 may block in past
// their timeout (rd_kafka_offsets_for_times when the broker dies after the
// request went out, fixed in 2.3.0, #4460): the caller waits for the
// answer with its own deadline and abandons the call, with the thread, at
// it. A thread used to be started per call (a run of the mock differential
// makes about thirty offsets queries); these threads are kept and take the
// next call once theirs returned. One stuck in an abandoned call is never
// waited for: a call that finds no idle thread gets a new one.
//
// A call runs on the CPUs its caller may run on (the caller's affinity
// mask, taken at the call: store/rdkafka_thread_mask.h): a caller pinned to
// one CPU with the threads of its librdkafka handles keeps its queries'
// round trips on that CPU too, whichever caller started the kept thread.
//
// Thread-safety: any thread may start a call.
#pragma once

#include <functional>

#include "store/status.h"

namespace durasim::rdkafka {

// Runs `call` on an idle kept thread, or on a new one. Errors: kInternal
// when no thread could be started.
[[nodiscard]] Status RunOnQueryThread(std::function<void()> call);

}  // namespace durasim::rdkafka
