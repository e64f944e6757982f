// RewriteAfterMarkerStore implementation.
#include "properties/mutants/rewrite_after_marker.h"

#include "store/state_codec.h"

namespace durasim {

boost::asio::awaitable<Status> RewriteAfterMarkerStore::CompleteSnapshot(const CompletedBoundaries& completed,
                                                                         const RecoveryMarker& /*marker*/) {
  if (design_ != StoreDesign::kKafkaRewrite) co_return Status::Ok();
  for (const std::string& record_key : StatesToRewrite(completed)) {
    const CachedState& cached = cache_.at(record_key);
    std::string value = EncodeStateValue(cached.state_key, cached.state);
    ++snapshot_records_;
    snapshot_bytes_ += record_key.size() + value.size();
    // The bug: sent, never awaited (the cache keeps the older position).
    client_.Produce(cached.position.partition, record_key, std::move(value));
  }
  client_.Flush();
  co_return Status::Ok();
}

}  // namespace durasim
