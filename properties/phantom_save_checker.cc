// PhantomSaveChecker implementation.
#include "properties/phantom_save_checker.h"

#include <fmt/format.h>

#include "store/hash.h"
#include "store/state_codec.h"

namespace durasim {

void PhantomSaveChecker::OnAttemptStart(int /*attempt*/) { unsaved_.clear(); }

void PhantomSaveChecker::OnRecordAppended(const LogRecord& record, const DecodedState* decoded,
                                          size_t /*trace_index*/) {
  if (decoded != nullptr) persisted_.emplace(record.key, StateDigest(decoded->state_key, decoded->state));
}

void PhantomSaveChecker::OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status,
                                     size_t trace_index) {
  if (!status.ok()) {
    if (persisted_.count({EncodeRecordKey(key), value_digest}) == 0) {
      unsaved_[key] = {value_digest, trace_index};
    } else {
      // The log holds that value already (an earlier write of it, or this
      // one with its acknowledgement lost): returning it is no phantom.
      unsaved_.erase(key);
    }
    return;
  }
  unsaved_.erase(key);
  if (persisted_.count({EncodeRecordKey(key), value_digest}) == 0) {
    Violate(Invariant::kPhantomSave,
            fmt::format("put of {:?} seq {} reported saved, but the log does not hold that value", key.key, key.seq),
            {trace_index});
  }
}

void PhantomSaveChecker::OnGetHit(const StateKey& key, uint64_t value_digest, size_t trace_index) {
  auto unsaved = unsaved_.find(key);
  if (unsaved != unsaved_.end() && unsaved->second.first == value_digest) {
    Violate(Invariant::kPhantomSave,
            fmt::format("get of {:?} seq {} returned a write that failed or was cancelled", key.key, key.seq),
            {unsaved->second.second, trace_index});
  }
  if (persisted_.count({EncodeRecordKey(key), value_digest}) == 0) {
    Violate(Invariant::kPhantomSave,
            fmt::format("get of {:?} seq {} returned a state the log does not hold", key.key, key.seq),
            {trace_index});
  }
}

}  // namespace durasim
