// RuntimePuts: the state puts the runtime has issued and not yet ended, by
// state key, for checkers that must tell the runtime's own record of a state
// from one the store writes on its own (a rewrite) or one found at an
// attempt's start. A crash ends every put: the checker clears it at each
// attempt's start.
//
// Thread-safety: none; one run's checkers use it on one thread.
#pragma once

#include <map>

#include "store/action_state.h"

namespace durasim {

class RuntimePuts {
 public:
  void Issued(const StateKey& key) { ++in_flight_[key]; }
  void Ended(const StateKey& key) {
    if (auto it = in_flight_.find(key); it != in_flight_.end() && --it->second <= 0) in_flight_.erase(it);
  }
  void Clear() { in_flight_.clear(); }
  // Whether a put of `key` is in flight: a record of it appended now is the runtime's.
  bool InFlight(const StateKey& key) const { return in_flight_.count(key) > 0; }

 private:
  std::map<StateKey, int> in_flight_;  // always > 0
};

}  // namespace durasim
