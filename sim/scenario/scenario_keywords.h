// The step keywords of the scenario format (docs/scenarios.md), one table for
// action steps and one for attempt steps (from the fault catalog). The parser reads a step's keyword
// through these tables and the writer prints it from them, so the two cannot
// drift apart. The order of each table is the order error messages list them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/fault_catalog.h"
#include "model/scenario.h"
#include "store/check.h"

namespace durasim {

template <typename Kind>
struct StepKeyword {
  Kind kind;
  const char* keyword;
  bool takes_value;  // `- keyword: value`, else the bare `- keyword`
};

inline constexpr StepKeyword<ActionStep::Kind> kActionStepKeywords[] = {
    {ActionStep::Kind::kCall, "call", true},
    {ActionStep::Kind::kMemory, "memory", true},
    {ActionStep::Kind::kEmit, "emit", true},
    {ActionStep::Kind::kOutput, "output", false},
    {ActionStep::Kind::kRecall, "recall", true},
    {ActionStep::Kind::kMemoryAdd, "memory_add", true},
};

// The action step table lists every kind once, in declaration order, up to
// the last one (named here): a missing or reordered entry breaks the build.
// The attempt steps' keywords are the fault catalog's step table
// (model/fault_catalog.h), where each step, fault or not, has its one home;
// there the guard is -Wswitch (StepEntryOf is a switch without default:),
// and a keyword given twice aborts the first parse.
template <typename Kind, size_t N>
constexpr bool InDeclarationOrder(const StepKeyword<Kind> (&table)[N], Kind last) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].kind != static_cast<Kind>(i)) return false;
  }
  return table[N - 1].kind == last;
}
static_assert(InDeclarationOrder(kActionStepKeywords, ActionStep::Kind::kMemoryAdd));

// The attempt step table, from the catalog, in declaration order.
inline std::span<const StepKeyword<AttemptStep::Kind>> AttemptStepKeywords() {
  static const std::vector<StepKeyword<AttemptStep::Kind>> kTable = [] {
    std::vector<StepKeyword<AttemptStep::Kind>> table;
    for (int value = 0;; ++value) {
      const auto kind = static_cast<AttemptStep::Kind>(value);
      const std::optional<StepEntry> entry = StepEntryOf(kind);
      if (!entry) break;
      // A keyword names one step: the catalog never gives two steps one.
      DURASIM_CHECK_MSG(std::none_of(table.begin(), table.end(),
                                     [&](const StepKeyword<AttemptStep::Kind>& k) {
                                       return std::string_view(k.keyword) == entry->keyword;
                                     }),
                        entry->keyword);
      table.push_back({kind, entry->keyword, entry->takes_value});
    }
    return table;
  }();
  return kTable;
}

// The entry of `keyword` in `table`, or null when it is no step keyword.
template <typename Kind>
const StepKeyword<Kind>* FindStepKeyword(std::span<const StepKeyword<Kind>> table, std::string_view keyword) {
  for (const StepKeyword<Kind>& entry : table) {
    if (keyword == entry.keyword) return &entry;
  }
  return nullptr;
}

// The keyword of a step kind.
template <typename Kind>
const char* StepKeywordOf(std::span<const StepKeyword<Kind>> table, Kind kind) {
  for (const StepKeyword<Kind>& entry : table) {
    if (entry.kind == kind) return entry.keyword;
  }
  return "?";
}

inline const char* StepKeywordOf(ActionStep::Kind kind) {
  return StepKeywordOf(std::span<const StepKeyword<ActionStep::Kind>>(kActionStepKeywords), kind);
}
inline const char* StepKeywordOf(AttemptStep::Kind kind) { return StepKeywordOf(AttemptStepKeywords(), kind); }

}  // namespace durasim
