// AwaitBeforeFlushStore implementation.
#include "properties/mutants/await_before_flush.h"

#include "store/state_codec.h"

namespace durasim {

boost::asio::awaitable<Status> AwaitBeforeFlushStore::Put(const StateKey& state_key, const ActionState& state) {
  const std::string record_key = EncodeRecordKey(state_key);
  const int32_t partition = PartitionForKey(state_key.key, client_.partition_count());
  const ProduceTicket ticket = client_.Produce(partition, record_key, EncodeStateValue(state_key, state));
  Result<RecordPosition> ack = co_await client_.AwaitAck(ticket);  // the bug: waits out the linger
  client_.Flush();
  if (!ack.ok()) co_return ack.status();
  Remember(record_key, CachedState{state_key, state, *ack});
  co_return Status::Ok();
}

}  // namespace durasim
