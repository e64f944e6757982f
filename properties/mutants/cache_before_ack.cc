// CacheBeforeAckStore implementation.
#include "properties/mutants/cache_before_ack.h"

#include "store/state_codec.h"

namespace durasim {

boost::asio::awaitable<Status> CacheBeforeAckStore::Put(const StateKey& state_key, const ActionState& state) {
  const std::string record_key = EncodeRecordKey(state_key);
  const int32_t partition = PartitionForKey(state_key.key, client_.partition_count());
  // Before the acknowledgement the offset is unknown: guess the partition's end.
  int64_t guessed_offset = 0;
  if (Result<std::vector<PartitionOffsets>> offsets = client_.Offsets(); offsets.ok()) {
    guessed_offset = (*offsets)[static_cast<size_t>(partition)].end;
  }
  const ProduceTicket ticket = client_.Produce(partition, record_key, EncodeStateValue(state_key, state));
  Remember(record_key, CachedState{state_key, state, RecordPosition{partition, guessed_offset}});  // the bug
  client_.Flush();
  Result<RecordPosition> ack = co_await client_.AwaitAck(ticket);
  if (!ack.ok()) co_return ack.status();  // the cache keeps the unsaved state
  Remember(record_key, CachedState{state_key, state, *ack});
  co_return Status::Ok();
}

}  // namespace durasim
