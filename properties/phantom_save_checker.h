// Invariant: no phantom saves. A put reported saved is held by the log; a
// get returns only states the log holds; within an attempt, a write that
// failed or was cancelled is never returned by get.
#pragma once

#include <boost/container/small_vector.hpp>
#include <map>
#include <string>

#include "properties/invariant_checker.h"

namespace durasim {

class PhantomSaveChecker : public InvariantChecker {
 public:
  using InvariantChecker::InvariantChecker;
  void OnAttemptStart(int attempt) override;
  void OnRecordAppended(const LogRecord& record, const DecodedState* decoded, size_t trace_index) override;
  void OnPutResult(const StateKey& key, uint64_t value_digest, const Status& status, size_t trace_index) override;
  void OnGetHit(const StateKey& key, uint64_t value_digest, size_t trace_index) override;

 private:
  // Whether the log holds a record of `key` whose value has `value_digest`.
  bool Holds(const StateKey& key, uint64_t value_digest) const;

  // Value digest -> the record keys of the records with that value: almost
  // always one (the digest covers the state key), held in the node.
  std::map<uint64_t, boost::container::small_vector<std::string, 1>> persisted_;
  // Within the current attempt: the last unsuccessful put per state key.
  std::map<StateKey, std::pair<uint64_t, size_t>> unsaved_;
};

}  // namespace durasim
