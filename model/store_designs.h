// The names of the store designs (store/store_design.h), as `store:` in a
// scenario, `--store` and `durasim stores-list` write them, and the options
// a scenario builds its store with.
#pragma once

#include <optional>
#include <string>

#include "model/enum_table.h"
#include "model/scenario.h"
#include "store/store_design.h"

namespace durasim {


std::optional<EnumInfo> EnumInfoOf(StoreDesign design);

// Where each design comes from: the real code or proposal it reads.
const char* OriginOf(StoreDesign design);

// The options the stores of `scenario`'s attempt `attempt` (1-based) are
// built with: its design, its store options and the tombstone settings in
// effect for that attempt (Scenario::TombstonesIn).
StoreOptions StoreOptionsOf(const Scenario& scenario, int attempt);

// What of `scenario` `design` cannot run, or none. fluss: a Fluss log table
// has a fixed bucket set (0.3.0 fails a restore on a bucket-set mismatch),
// no incarnations the marker could tell apart (it names no table), and no
// tombstones or compaction (it is append-only): tombstones (log.tombstones
// or an attempt's) and the
// add_partitions, recreate_topic and compact steps. The reason names the
// step by its attempt and, where it has one, its line.
std::optional<std::string> NotRunnableOn(const Scenario& scenario, StoreDesign design);
// Drops from a generated `scenario` what `design` cannot run
// (NotRunnableOn), its own design unchanged: afterwards
// NotRunnableOn(scenario, design) is none.
void FitToDesign(Scenario& scenario, StoreDesign design);
// FitToDesign(scenario, scenario.store).
inline void FitToDesign(Scenario& scenario) { FitToDesign(scenario, scenario.store); }

}  // namespace durasim
