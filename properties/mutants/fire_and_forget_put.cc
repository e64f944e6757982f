// FireAndForgetPutStore implementation.
#include "properties/mutants/fire_and_forget_put.h"

#include "store/state_codec.h"

namespace durasim {

boost::asio::awaitable<Status> FireAndForgetPutStore::Put(const StateKey& state_key, const ActionState& state) {
  const std::string record_key = EncodeRecordKey(state_key);
  const int32_t partition = PartitionForKey(state_key.key, client_.partition_count());
  int64_t guessed_offset = 0;
  if (Result<std::vector<PartitionOffsets>> offsets = client_.Offsets(); offsets.ok()) {
    guessed_offset = (*offsets)[static_cast<size_t>(partition)].end;
  }
  client_.Produce(partition, record_key, EncodeStateValue(state_key, state));
  // The bug: no flush, no wait for the acknowledgement.
  Remember(record_key, CachedState{state_key, state, RecordPosition{partition, guessed_offset}});
  co_return Status::Ok();
}

}  // namespace durasim
