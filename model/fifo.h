// Fifo<T>: the queues a checkpoint copies or an attempt builds many of (a
// key's tasks and pending inputs, a mailbox's waiters). Every checkpoint
// copies each key's queues and every attempt builds its mailboxes;
// std::deque allocates even for an empty queue: devector instead took an
// eighth of the seed regression's allocations away
// (docs/benchmarks.md, "Issue 15, part 6"). boost::container::devector
// allocates nothing while empty and pops from the front in O(1).
// Unlike std::deque, a push may move the elements: hold no reference to
// one across a push.
#pragma once

#include <boost/container/devector.hpp>

namespace durasim {

template <typename T>
using Fifo = boost::container::devector<T>;

}  // namespace durasim
