// RuntimePuts: the state puts the runtime has issued and not yet ended, by
// state key, for checkers that must tell the runtime's own record of a state
// from one the store writes on its own (a rewrite) or one found at an
// attempt's start. A crash ends every put: the checker clears it at each
// attempt's start. A put of a key no other put has in flight adds an entry,
// and its end removes it: a node pool keeps the removed nodes for the next.
//
// Thread-safety: none; one run's checkers use it on one thread.
#pragma once

#include <map>

#include "store/action_state.h"
#include "store/node_pool.h"

namespace durasim {

class RuntimePuts {
 public:
  void Issued(const StateKey& key) {
    auto at = in_flight_.lower_bound(key);
    if (at != in_flight_.end() && at->first == key) {
      ++at->second;
    } else {
      nodes_.Insert(in_flight_, at, key, 1);
    }
  }
  void Ended(const StateKey& key) {
    if (auto it = in_flight_.find(key); it != in_flight_.end() && --it->second <= 0) nodes_.Erase(in_flight_, it);
  }
  void Clear() { in_flight_.clear(); }
  // Whether a put of `key` is in flight: a record of it appended now is the runtime's.
  bool InFlight(const StateKey& key) const { return in_flight_.count(key) > 0; }

 private:
  std::map<StateKey, int> in_flight_;  // always > 0
  NodePool<std::map<StateKey, int>> nodes_;
};

}  // namespace durasim
