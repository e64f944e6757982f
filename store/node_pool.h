// NodePool: the nodes a std::map gave up, kept for its next inserts. Some
// maps hold few entries that come and go all run long (a put in flight, a
// sleeping coroutine's timer, a parked handler); a tree allocates a node for
// each insert and frees it at the erase. With a pool, a map whose size swings
// by at most kKeptMax allocates only up to its high-water mark, and it stays a
// std::map: the same order, the same iterators, the same contents.
//
// An erased entry's key and value stay alive in the kept node until the node
// is reused or the pool is destroyed: move out of the value whatever must
// not outlive the erase (a handler) before erasing it.
//
// Thread-safety: none; one pool serves one map.
#pragma once

#include <array>
#include <cstddef>
#include <utility>

#include "store/check.h"

namespace durasim {

template <typename Map, size_t kKeptMax = 4>
class NodePool {
 public:
  NodePool() = default;
  // Not copied or moved: the nodes belong to one map.
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  // Erases `at` from `map`, keeping its node when the pool has room.
  void Erase(Map& map, typename Map::iterator at) {
    if (kept_ == kKeptMax) {
      map.erase(at);
      return;
    }
    nodes_[kept_++] = map.extract(at);
  }
  // Inserts (`key`, `value`) into `map`, in a kept node when there is one.
  // REQUIRES: `key` is not in `map`.
  template <typename Key, typename Value>
  typename Map::iterator Insert(Map& map, Key&& key, Value&& value) {
    return InsertAt(map, nullptr, std::forward<Key>(key), std::forward<Value>(value));
  }
  // The same at `hint`, as emplace_hint takes it: where the key goes, for an
  // insert without a search.
  template <typename Key, typename Value>
  typename Map::iterator Insert(Map& map, typename Map::const_iterator hint, Key&& key, Value&& value) {
    return InsertAt(map, &hint, std::forward<Key>(key), std::forward<Value>(value));
  }

 private:
  // `hint`: null for none.
  template <typename Key, typename Value>
  typename Map::iterator InsertAt(Map& map, const typename Map::const_iterator* hint, Key&& key, Value&& value) {
    const size_t size_before = map.size();
    typename Map::iterator inserted;
    if (kept_ == 0) {
      inserted = hint != nullptr ? map.emplace_hint(*hint, std::forward<Key>(key), std::forward<Value>(value))
                                 : map.emplace(std::forward<Key>(key), std::forward<Value>(value)).first;
    } else {
      typename Map::node_type& node = nodes_[--kept_];
      node.key() = std::forward<Key>(key);
      node.mapped() = std::forward<Value>(value);
      inserted = hint != nullptr ? map.insert(*hint, std::move(node)) : map.insert(std::move(node)).position;
    }
    DURASIM_CHECK_EQ(map.size(), size_before + 1);  // the key was not there
    return inserted;
  }

  std::array<typename Map::node_type, kKeptMax> nodes_;
  size_t kept_ = 0;  // nodes_[0, kept_) hold nodes
};

}  // namespace durasim
