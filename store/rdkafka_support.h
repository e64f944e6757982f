// What the librdkafka client's rooms (producer, reader, topic admin) share:
// wall-clock deadlines and poll slices, configuration objects, error texts,
// the consumer handle.
// Internal to the client: only its .cc files include it (it pulls in
// librdkafka's header).
#pragma once

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "store/rdkafka_config.h"
#include "store/status.h"

namespace durasim::rdkafka {

using Clock = std::chrono::steady_clock;

// Poll slice while waiting for a delivery report or a record: short enough to
// notice the deadline and a fatal error promptly.
inline constexpr std::chrono::milliseconds kPollSlice{10};
// Extra wait for a watermark query or an admin call past the deadline, so
// that librdkafka's own timeout (set to the deadline) reports first, with its
// reason.
inline constexpr std::chrono::milliseconds kQueryGrace{250};

// The longest one blocking librdkafka call (a metadata request, an offsets
// query, an admin call's answer) waits before its caller looks at the
// deadline and at an interrupt again: what bounds the time from a signal to
// the call's end. A call that times out within it is asked again until the
// deadline.
inline constexpr std::chrono::milliseconds kBlockingSlice{250};

// Whether an interrupt was requested (SetRdKafkaInterruptSource).
bool InterruptRequested();
// Milliseconds left until `deadline`, never negative; 0 once an interrupt
// was requested, so that every wait ends as at its deadline.
int RemainingMs(Clock::time_point deadline);
// One poll slice, or what is left of the deadline when that is less.
int SliceMs(Clock::time_point deadline);
// The timeout of one blocking call: kBlockingSlice, or what is left of the
// deadline when that is less; at least 1 (librdkafka reads 0 as "do not wait").
int BlockingMs(Clock::time_point deadline);
// `call(timeout_ms)`, one blocking librdkafka call (a metadata request, an
// offsets query, the committed offset), made so that a signal can end it:
// - While no broker is usable (librdkafka waits for one and says
//   _TRANSPORT when its timeout passes first, having sent nothing), it is
//   asked again in BlockingMs slices until the deadline: an unreachable or
//   silent broker takes the whole deadline, as one call would, and an
//   interrupt ends it within a slice.
// - Once a request went out and ran out of its slice (_TIMED_OUT), it is
//   asked once more with the rest of the deadline: each ask is a new
//   request whose answer the next ask would drop, so a broker slower than a
//   slice must get one long wait. That wait is not cut by a signal.
template <typename Call>
rd_kafka_resp_err_t CallInSlices(Clock::time_point deadline, Call call) {
  while (true) {
    const int slice = BlockingMs(deadline);
    const Clock::time_point started = Clock::now();
    const rd_kafka_resp_err_t err = call(slice);
    // librdkafka's timer may fire a fraction of a millisecond before ours
    // says the slice ran out (seen: _TIMED_OUT at 249.6 ms of a 250 ms
    // slice): a _TIMED_OUT within kSliceSlack of the slice's end counts.
    const std::chrono::milliseconds kSliceSlack{5};
    const Clock::duration took = Clock::now() - started;
    const bool ran_out = took >= std::chrono::milliseconds(slice) ||
                         (err == RD_KAFKA_RESP_ERR__TIMED_OUT && took + kSliceSlack >= std::chrono::milliseconds(slice));
    if (!ran_out || RemainingMs(deadline) == 0) return err;
    if (err == RD_KAFKA_RESP_ERR__TIMED_OUT) return call(std::max(1, RemainingMs(deadline)));
    if (err != RD_KAFKA_RESP_ERR__TRANSPORT) return err;
  }
}
// The answer of an admin call (or of a commit given its own queue) on
// `queue`, polled in slices until it comes, the deadline plus kQueryGrace
// passes (an admin call's own timeout, set to the deadline, reports first;
// a commit has none) or an interrupt is requested: nullptr then.
rd_kafka_event_t* PollAdminAnswer(rd_kafka_queue_t* queue, Clock::time_point deadline);
// `failed`, a wait that ended (kUnavailable, kPossiblyPersisted), as the
// interrupt's kCancelled when one was requested: the deadline it reports
// did not pass. Any other failure is unchanged.
Status AsInterrupted(Status failed);

// "<description> (<NAME>)".
std::string ErrorText(rd_kafka_resp_err_t err);
// " (last error: <error>)", or nothing when there was none.
std::string LastErrorSuffix(const std::string& last_error);
// "topic '<t>' partition <p> at <servers>", for messages.
std::string Where(const RdKafkaConfig& config, int32_t partition);

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
using Conf = std::unique_ptr<rd_kafka_conf_t, ConfDeleter>;

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const { rd_kafka_topic_partition_list_destroy(list); }
};
// A topic-partition list, destroyed with its owner.
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

// librdkafka's log lines through store/rdkafka_log.h instead of its
// default stderr printer.
void OnLogLine(const rd_kafka_t* rk, int level, const char* facility, const char* message);
void RouteLog(rd_kafka_conf_t* conf);

// Sets every property on `conf`, and routes its log lines (RouteLog).
// Errors: kInvalidArgument naming the property.
[[nodiscard]] Status SetAll(rd_kafka_conf_t* conf, const std::vector<std::pair<std::string, std::string>>& properties);

}  // namespace durasim::rdkafka

namespace durasim {

// The consumer handle of RdKafkaReader (Read) and topic admin (Offsets),
// with its latest error callback. Shared with a watermark query that topic
// admin may abandon on its own thread, so its error text is guarded.
struct RdKafkaConsumer {
  RdKafkaConsumer() = default;
  ~RdKafkaConsumer();
  RdKafkaConsumer(const RdKafkaConsumer&) = delete;
  RdKafkaConsumer& operator=(const RdKafkaConsumer&) = delete;

  // " (last error: ...)", or nothing.
  std::string LastError();
  static void OnError(rd_kafka_t* rk, int err, const char* reason, void* opaque);

  // Whether an error callback since the last call said a broker connection
  // was lost (an outage); clears it.
  bool TakeLostConnection();

  rd_kafka_t* rk = nullptr;
  std::mutex mu;  // an abandoned Offsets query may still use the handle
  std::string last_error;
  bool lost_connection = false;
};

}  // namespace durasim
