// PhantomSaveChecker implementation.
#include "properties/phantom_save_checker.h"

#include <algorithm>

#include "store/format.h"
#include "store/hash.h"
#include "store/state_codec.h"

namespace durasim {

void PhantomSaveChecker::OnAttemptStart(int /*attempt*/) { unsaved_.clear(); }

void PhantomSaveChecker::OnRecordAppended(const LogRecord& record, const DecodedState* decoded,
                                          size_t /*trace_index*/) {
  if (decoded == nullptr) return;
  auto& keys = persisted_[StateDigest(decoded->state_key, decoded->state)];
  if (std::find(keys.begin(), keys.end(), record.key) == keys.end()) keys.push_back(record.key);
}

bool PhantomSaveChecker::Holds(const StateKey& key, uint64_t value_digest) const {
  auto keys = persisted_.find(value_digest);
  return keys != persisted_.end() && std::any_of(keys->second.begin(), keys->second.end(),
                                                  [&](const std::string& record_key) { return IsRecordKeyOf(record_key, key); });
}

void PhantomSaveChecker::OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status,
                                     size_t trace_index) {
  if (!status.ok()) {
    if (!Holds(key, value_digest)) {
      unsaved_[key] = {value_digest, trace_index};
    } else {
      // The log holds that value already (an earlier write of it, or this
      // one with its acknowledgement lost): returning it is no phantom.
      unsaved_.erase(key);
    }
    return;
  }
  unsaved_.erase(key);
  if (!Holds(key, value_digest)) {
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
  if (!Holds(key, value_digest)) {
    Violate(Invariant::kPhantomSave,
            fmt::format("get of {:?} seq {} returned a state the log does not hold", key.key, key.seq),
            {trace_index});
  }
}

}  // namespace durasim
