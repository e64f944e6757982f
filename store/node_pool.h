// NodePool: the nodes a std::map gave up, kept for its next insert. Some
// maps hold few entries that come and go all run long (a put in flight, a
// sleeping coroutine's timer, a parked handler); a tree allocates a node for
// each insert and frees it at the erase. With a pool they allocate only up
// to their high-water mark, and the map stays a std::map: the same order,
// the same iterators, the same contents.
//
// Thread-safety: none; one pool serves one map.
#pragma once

#include <array>
#include <cstddef>
#include <utility>

#include "store/check.h"

namespace durasim {

template <typename Map, size_t kKept = 4>
class NodePool {
 public:
  // Erases `at` from `map`, keeping its node when the pool has room.
  void Erase(Map& map, typename Map::iterator at) {
    if (kept_ == kKept) {
      map.erase(at);
      return;
    }
    nodes_[kept_++] = map.extract(at);
  }
  // Inserts (`key`, `value`) at `hint` (as emplace_hint does), in a kept node
  // when there is one. REQUIRES: `key` is not in `map`.
  template <typename Key, typename Value>
  typename Map::iterator Insert(Map& map, typename Map::const_iterator hint, Key&& key, Value&& value) {
    if (kept_ == 0) return map.emplace_hint(hint, std::forward<Key>(key), std::forward<Value>(value));
    typename Map::node_type& node = nodes_[--kept_];
    node.key() = std::forward<Key>(key);
    node.mapped() = std::forward<Value>(value);
    const typename Map::iterator inserted = map.insert(hint, std::move(node));
    DURASIM_CHECK(node.empty());  // the key was not there
    return inserted;
  }

 private:
  std::array<typename Map::node_type, kKept> nodes_;
  size_t kept_ = 0;  // nodes_[0, kept_) hold nodes
};

}  // namespace durasim
