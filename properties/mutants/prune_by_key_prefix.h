// Mutant prune-by-key-prefix: prune finds a key's states by the prefix
// "<key>_" of their record keys ("<key>_<seq>_<event>_<action>") and reads
// the field after the prefix as the sequence number: Flink Agents'
// removeStateEntries(key + "_", ...) without the ActionStateUtil.parseKey
// that makes it keep (leak) every entry not of four fields instead (mutant
// fluss-prune-skips-separator-keys). A key that is another's prefix
// up to the separator then catches the longer key's states: pruning key
// "a" up to seq 3 also evicts key "a_1"'s states (the "1" read as a seq),
// in-flight ones too. The next snapshot's marker no longer vouches for
// them (kafka-rewind's rewind, kafka-rewrite's rewrite and fluss's rewind
// all start from the cache), so a restore misses them and their calls are
// made again. Only keys shaped like real keys reach it (model/key_shapes.h:
// keys_separator_prefix). The key's own states are pruned as in production.
#pragma once

#include <cstdint>
#include <string>

#include "model/parts.h"
#include "store/fluss_action_state_store.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

template <typename Base>
class PruningByKeyPrefix : public Base {
 public:
  using Base::Base;
  void Prune(const std::string& key, int64_t seq) override;
};

extern template class PruningByKeyPrefix<KafkaActionStateStore>;
extern template class PruningByKeyPrefix<FlussActionStateStore>;

// The prefix-pruning store of each design.
StoreFactory PruneByKeyPrefixStores();

}  // namespace durasim
