// Key groups, as Flink assigns them (KeyGroupRangeAssignment): a job with
// max parallelism M splits the key space into M key groups, and an operator
// with parallelism P gives subtask i the contiguous range of key groups
// [ceil(i*M/P), ceil((i+1)*M/P) - 1], so key group g belongs to subtask
// g*P/M. An input key is a Java String in the job, so its key group is
// MathUtils.murmurHash(key.hashCode()) % M, with String.hashCode over the
// key's UTF-16 code units (a Long key, model/typed_key.h: Long.hashCode). Pinned against Java itself in key_groups_test.cc.
// A key that is not valid UTF-8 is no Java String: here each byte that does
// not decode counts as one U+FFFD (Java's decoder may fold a longer
// malformed sequence into one), so it still has a key group.
#pragma once

#include <cstdint>
#include <string_view>

namespace durasim {

// Flink's bounds: 1 <= P <= M <= 32768 (KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM).
inline constexpr int32_t kMaxParallelismUpperBound = 32768;
inline constexpr int32_t kDefaultMaxParallelism = 128;

// java.lang.String.hashCode of the UTF-8 string `key`.
int32_t JavaStringHashCode(std::string_view key);
// org.apache.flink.util.MathUtils.murmurHash: non-negative.
int32_t FlinkMurmurHash(int32_t code);

struct KeyGroupRange {
  int32_t first = 0;
  int32_t last = -1;  // inclusive; last < first: empty
  bool Contains(int32_t key_group) const { return key_group >= first && key_group <= last; }
};

// REQUIRES: 1 <= max_parallelism <= kMaxParallelismUpperBound, 1 <= parallelism <= max_parallelism.
int32_t KeyGroupOf(std::string_view key, int32_t max_parallelism);
int32_t SubtaskOfKeyGroup(int32_t key_group, int32_t max_parallelism, int32_t parallelism);
int32_t SubtaskOfKey(std::string_view key, int32_t max_parallelism, int32_t parallelism);
KeyGroupRange KeyGroupRangeOf(int32_t subtask, int32_t max_parallelism, int32_t parallelism);

}  // namespace durasim
