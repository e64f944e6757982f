// Mutant fluss-prune-skips-separator-keys: the shipped prune of Flink Agents
// 0.3.0's FlussActionStateStore (and of apache/flink-agents main 8ad3a32b).
// pruneState(key, seq) removes the cached entries whose record key starts
// with `key + "_"` and that ActionStateUtil.parseKey splits into exactly
// four '_'-separated fields (key, seq, event, action); an entry that does
// not split so is logged and kept. The state of an input key holding '_'
// never splits so: it is never pruned, and the cache grows with every input
// of such a key (bounded-memory). A longer key with `key_` as its prefix is
// safe by the same accident. durasim's fluss store parses record keys from
// the right, so its prune drops a key's states whatever the key holds
// (store/fluss_action_state_store.h). Only keys shaped like real keys reach
// it (model/key_shapes.h).
#pragma once

#include <cstdint>
#include <string>

#include "store/fluss_action_state_store.h"

namespace durasim {

class FlussPruneSkipsSeparatorKeysStore : public FlussActionStateStore {
 public:
  using FlussActionStateStore::FlussActionStateStore;
  // A key's states are pruned only when the key holds no '_' (parseKey's
  // four fields); otherwise nothing is.
  void Prune(const std::string& key, int64_t seq) override {
    if (key.find('_') == std::string::npos) FlussActionStateStore::Prune(key, seq);
  }
};

}  // namespace durasim
