// PutLatencyChecker implementation.
#include "properties/put_latency_checker.h"

#include "model/perturbation.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

void PutLatencyChecker::OnAttemptStart(int /*attempt*/) { in_flight_.clear(); }

void PutLatencyChecker::OnPutIssued(const StateKey& key, size_t trace_index) {
  auto at = in_flight_.lower_bound(key);
  if (at != in_flight_.end() && at->first == key) nodes_.Erase(in_flight_, at++);
  if (!world_.log().IsUp(world_.now())) return;
  nodes_.Insert(in_flight_, at, key, Issued{world_.now(), trace_index});
}

void PutLatencyChecker::OnPutResult(const StateKey& key, uint64_t /*value_digest*/, const Status& status,
                                    size_t trace_index) {
  auto it = in_flight_.find(key);
  if (it == in_flight_.end()) return;
  const Issued issued = it->second;
  nodes_.Erase(in_flight_, it);
  if (!status.ok()) return;
  const LogConfig& log = world_.scenario().log;
  // A perturbed run draws each acknowledgement's latency up to its range's maximum.
  const int64_t ack_latency_ms = AckLatencyMsMax(world_.scenario());
  const SimDuration bound = std::chrono::milliseconds(ack_latency_ms);
  const SimDuration took = world_.now() - issued.at;
  DURASIM_CHECK(took >= SimDuration::zero());  // simulated time never goes back
  if (took > bound) {
    Violate(Invariant::kPutLatency,
            fmt::format("the put of {:?} seq {} took {} with the broker up; flushed before its wait it takes the "
                        "acknowledgement latency, {} ms (linger {} ms)",
                        key.key, key.seq, FormatSimTime(SimTime(took)), ack_latency_ms, log.linger_ms),
            {issued.trace_index, trace_index});
  }
}

}  // namespace durasim
