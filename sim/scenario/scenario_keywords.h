// The step keywords of the scenario format (docs/scenarios.md), one table for
// action steps and one for attempt steps. The parser reads a step's keyword
// through these tables and the writer prints it from them, so the two cannot
// drift apart. The order of each table is the order error messages list them.
#pragma once

#include <cstddef>
#include <string_view>

#include "model/scenario.h"

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

inline constexpr StepKeyword<AttemptStep::Kind> kAttemptStepKeywords[] = {
    {AttemptStep::Kind::kRead, "read", true},
    {AttemptStep::Kind::kCheckpoint, "checkpoint", true},
    {AttemptStep::Kind::kComplete, "complete", true},
    {AttemptStep::Kind::kAbort, "abort", true},
    {AttemptStep::Kind::kRun, "run", false},
    {AttemptStep::Kind::kRunFor, "run_ms", true},
    {AttemptStep::Kind::kCrash, "crash", false},
    {AttemptStep::Kind::kArm, "arm", true},
    {AttemptStep::Kind::kBrokerDown, "broker_down", true},
    {AttemptStep::Kind::kCorrupt, "corrupt", true},
    {AttemptStep::Kind::kDeleteRecords, "delete_records", true},
    {AttemptStep::Kind::kRecreateTopic, "recreate_topic", false},
    {AttemptStep::Kind::kSlowFetch, "slow_fetch", true},
    {AttemptStep::Kind::kCompact, "compact", false},
    {AttemptStep::Kind::kAddPartitions, "add_partitions", true},
    {AttemptStep::Kind::kForeign, "foreign", true},
};

// Each table lists every kind once, in declaration order, up to the last one
// (named here): a missing or reordered entry breaks the build.
template <typename Kind, size_t N>
constexpr bool InDeclarationOrder(const StepKeyword<Kind> (&table)[N], Kind last) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].kind != static_cast<Kind>(i)) return false;
  }
  return table[N - 1].kind == last;
}
static_assert(InDeclarationOrder(kActionStepKeywords, ActionStep::Kind::kMemoryAdd));
static_assert(InDeclarationOrder(kAttemptStepKeywords, AttemptStep::Kind::kForeign));

// The entry of `keyword` in `table`, or null when it is no step keyword.
template <typename Kind, size_t N>
const StepKeyword<Kind>* FindStepKeyword(const StepKeyword<Kind> (&table)[N], std::string_view keyword) {
  for (const StepKeyword<Kind>& entry : table) {
    if (keyword == entry.keyword) return &entry;
  }
  return nullptr;
}

// The keyword of a step kind.
template <typename Kind, size_t N>
const char* StepKeywordOf(const StepKeyword<Kind> (&table)[N], Kind kind) {
  for (const StepKeyword<Kind>& entry : table) {
    if (entry.kind == kind) return entry.keyword;
  }
  return "?";
}

inline const char* StepKeywordOf(ActionStep::Kind kind) { return StepKeywordOf(kActionStepKeywords, kind); }
inline const char* StepKeywordOf(AttemptStep::Kind kind) { return StepKeywordOf(kAttemptStepKeywords, kind); }

}  // namespace durasim
