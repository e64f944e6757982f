// PruningByKeyPrefix implementation, instantiated for each design's store.
#include "properties/mutants/prune_by_key_prefix.h"

#include <charconv>
#include <utility>
#include <vector>

namespace durasim {

template <typename Base>
void PruningByKeyPrefix<Base>::Prune(const std::string& key, int64_t seq) {
  Base::Prune(key, seq);
  const std::string prefix = key + "_";
  std::vector<std::pair<std::string, std::string>> evicted;  // record key, its input key
  for (auto it = this->cache_.lower_bound(prefix); it != this->cache_.end() && it->first.starts_with(prefix); ++it) {
    const char* begin = it->first.data() + prefix.size();
    const char* end = it->first.data() + it->first.size();
    int64_t parsed = 0;
    const auto [next, error] = std::from_chars(begin, end, parsed);
    if (error != std::errc() || next == end || *next != '_') continue;  // no "<number>_" after the prefix
    if (parsed <= seq) evicted.emplace_back(it->first, it->second.state_key.key);
  }
  for (const auto& [record_key, input_key] : evicted) this->Forget(record_key, input_key);
}

template class PruningByKeyPrefix<KafkaActionStateStore>;
template class PruningByKeyPrefix<FlussActionStateStore>;

StoreFactory PruneByKeyPrefixStores() {
  return StoreByDesign(StoreOf<PruningByKeyPrefix<KafkaActionStateStore>>(),
                       StoreOf<PruningByKeyPrefix<FlussActionStateStore>>());
}

}  // namespace durasim
