// DivergenceEvictionStore implementation.
#include "properties/mutants/divergence_eviction.h"

#include <string>
#include <vector>

#include "store/state_codec.h"

namespace durasim {

std::optional<ActionState> DivergenceEvictionStore::Get(const StateKey& state_key) const {
  const std::string record_key = EncodeRecordKey(state_key);
  if (cache_.find(record_key) == cache_.end() || HasDivergence(state_key)) {
    // The Java get() mutates its cache on a read; so does this port. The
    // store is never created const, so the cast is well-defined.
    const_cast<DivergenceEvictionStore*>(this)->EvictLaterStates(state_key.seq);
  }
  return KafkaActionStateStore::Get(state_key);
}

bool DivergenceEvictionStore::HasDivergence(const StateKey& state_key) const {
  // k.startsWith(key + "_" + seqNum + "_"), counted over the cache's keys.
  const std::string prefix = state_key.key + "_" + std::to_string(state_key.seq) + "_";
  size_t count = 0;
  for (const auto& [record_key, cached] : cache_) {
    if (record_key.starts_with(prefix)) ++count;
  }
  return count > 1;
}

void DivergenceEvictionStore::EvictLaterStates(int64_t seq) {
  // removeIf(stateSeqNum > seqNum) over every cached state, of every key.
  std::vector<std::pair<std::string, std::string>> evicted;  // record key, input key
  for (const auto& [record_key, cached] : cache_) {
    if (cached.state_key.seq > seq) evicted.emplace_back(record_key, cached.state_key.key);
  }
  for (const auto& [record_key, input_key] : evicted) Forget(record_key, input_key);
}

}  // namespace durasim
