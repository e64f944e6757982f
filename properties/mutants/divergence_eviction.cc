// DivergenceEvicting implementation, instantiated for each design's store.
#include "properties/mutants/divergence_eviction.h"

#include <string>
#include <vector>

#include "store/state_codec.h"

namespace durasim {

template <typename Base>
std::optional<ActionState> DivergenceEvicting<Base>::Get(const StateKey& state_key) const {
  const std::string record_key = EncodeRecordKey(state_key);
  if (this->cache_.find(record_key) == this->cache_.end() || HasDivergence(state_key)) {
    // The Java get() mutates its cache on a read; so does this port. The
    // store is never created const, so the cast is well-defined.
    const_cast<DivergenceEvicting*>(this)->EvictLaterStates(state_key.seq);
  }
  return Base::Get(state_key);
}

template <typename Base>
bool DivergenceEvicting<Base>::HasDivergence(const StateKey& state_key) const {
  // k.startsWith(key + "_" + seqNum + "_"), counted over the cache's keys.
  const std::string prefix = state_key.key + "_" + std::to_string(state_key.seq) + "_";
  size_t count = 0;
  for (const auto& [record_key, cached] : this->cache_) {
    if (record_key.starts_with(prefix)) ++count;
  }
  return count > 1;
}

template <typename Base>
void DivergenceEvicting<Base>::EvictLaterStates(int64_t seq) {
  // removeIf(stateSeqNum > seqNum) over every cached state, of every key.
  std::vector<std::pair<std::string, std::string>> evicted;  // record key, input key
  for (const auto& [record_key, cached] : this->cache_) {
    if (cached.state_key.seq > seq) evicted.emplace_back(record_key, cached.state_key.key);
  }
  for (const auto& [record_key, input_key] : evicted) this->Forget(record_key, input_key);
}

template class DivergenceEvicting<KafkaActionStateStore>;
template class DivergenceEvicting<FlussActionStateStore>;

StoreFactory DivergenceEvictionStores() {
  return StoreByDesign(StoreOf<DivergenceEvicting<KafkaActionStateStore>>(),
                       StoreOf<DivergenceEvicting<FlussActionStateStore>>());
}

}  // namespace durasim
