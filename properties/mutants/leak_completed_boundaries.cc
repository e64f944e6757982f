// LeakCompletedBoundariesStore implementation.
#include "properties/mutants/leak_completed_boundaries.h"

#include <vector>

#include "store/state_codec.h"

namespace durasim {

void LeakCompletedBoundariesStore::Prune(const std::string& key, int64_t seq) {
  auto index = record_keys_by_input_.find(key);
  if (index == record_keys_by_input_.end()) return;
  std::set<std::string>& record_keys = index->second;
  std::vector<std::string> dropped;
  for (auto it = record_keys.begin(); it != record_keys.end();) {
    auto cached = cache_.find(*it);
    if (cached != cache_.end() && cached->second.state_key.seq <= seq) {
      cache_.erase(cached);
      if (tombstones_) dropped.push_back(*it);
      it = record_keys.erase(it);
    } else {
      ++it;
    }
  }
  const int32_t partition = PartitionForKey(key, client_.partition_count());
  for (const std::string& record_key : dropped) client_.Produce(partition, record_key, "");
  if (!dropped.empty()) client_.Flush();
  // The bug: the key's entry stays, empty, for the life of the job.
}

}  // namespace durasim
