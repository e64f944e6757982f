// Mutant key-to-string: the store names a state by its input key's text
// (key.toString()), as Flink Agents did before PR #1100 (#1099). A Long key
// and the String key of the same text, held by one subtask, then share
// their states: a lookup of one finds the other's saved result and reuses
// it, and a prune of one drops the other's cached states. Both designs'
// stores did it (KafkaActionStateStore and FlussActionStateStore used
// ActionStateUtil.generateKey's key.toString()), so `Base` is the design's.
#pragma once

#include "model/parts.h"
#include "model/typed_key.h"
#include "store/fluss_action_state_store.h"
#include "store/kafka_action_state_store.h"

namespace durasim {

template <typename Base>
class KeyToString : public Base {
 public:
  using Base::Base;

  boost::asio::awaitable<Status> Put(const StateKey& state_key, const ActionState& state) override {
    co_return co_await Base::Put(AsText(state_key), state);
  }
  std::optional<ActionState> Get(const StateKey& state_key) override { return Base::Get(AsText(state_key)); }
  void Prune(const std::string& key, int64_t seq) override { Base::Prune(KeyText(key), seq); }

 private:
  // The bug: the key's type is lost, its text is the state's name.
  static StateKey AsText(StateKey state_key) {
    state_key.key = KeyText(state_key.key);
    return state_key;
  }
};

// The text-keyed store of each design.
StoreFactory KeyToStringStores();

}  // namespace durasim
