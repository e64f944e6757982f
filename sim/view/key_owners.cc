// The key owners table.
#include "sim/view/key_owners.h"

#include <algorithm>
#include <functional>

#include "model/key_groups.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {

KeyOwners KeyOwnersOf(const Scenario& scenario) {
  KeyOwners owners;
  owners.max_parallelism = scenario.max_parallelism;
  for (const InputSpec& input : scenario.inputs) {
    if (std::find(owners.keys.begin(), owners.keys.end(), input.key) == owners.keys.end()) {
      owners.keys.push_back(input.key);
    }
  }
  for (size_t a = 1; a <= scenario.attempts.size(); ++a) owners.parallelisms.push_back(scenario.ParallelismOf(static_cast<int>(a)));
  std::sort(owners.parallelisms.begin(), owners.parallelisms.end());
  owners.parallelisms.erase(std::unique(owners.parallelisms.begin(), owners.parallelisms.end()),
                            owners.parallelisms.end());
  return owners;
}

std::string KeyOwnersTable(const KeyOwners& owners) {
  DURASIM_CHECK(owners.max_parallelism >= 1 && owners.max_parallelism <= kMaxParallelismUpperBound);
  size_t width = 3;
  for (const std::string& key : owners.keys) width = std::max(width, fmt::format("{:?}", key).size());
  std::string out = fmt::format("{:<{}}  {:>9}", "key", width, "key group");
  for (int32_t p : owners.parallelisms) out += fmt::format("  {:>7}", fmt::format("p={}", p));
  out += fmt::format("  (max parallelism {})\n", owners.max_parallelism);
  for (const std::string& key : owners.keys) {
    const int32_t group = KeyGroupOf(key, owners.max_parallelism);
    out += fmt::format("{:<{}}  {:>9}", fmt::format("{:?}", key), width, group);
    std::vector<int32_t> subtasks;
    for (int32_t p : owners.parallelisms) {
      DURASIM_CHECK(p >= 1 && p <= owners.max_parallelism);
      subtasks.push_back(SubtaskOfKeyGroup(group, owners.max_parallelism, p));
      out += fmt::format("  {:>7}", subtasks.back());
    }
    // A key moves when its subtask index differs between parallelisms: a
    // restore at the other gives it to another subtask than the one that
    // wrote its states (what the union-list markers and the ownership
    // rules are for).
    const bool moves = std::adjacent_find(subtasks.begin(), subtasks.end(), std::not_equal_to<>()) != subtasks.end();
    out += moves ? "  moves\n" : "\n";
  }
  return out;
}

}  // namespace durasim
