// The names of the store designs (store/store_design.h), as `store:` in a
// scenario, `--store` and `durasim stores-list` write them, and the options
// a scenario builds its store with.
#pragma once

#include <optional>

#include "model/enum_table.h"
#include "store/store_design.h"

namespace durasim {

struct Scenario;

std::optional<EnumInfo> EnumInfoOf(StoreDesign design);

// Where each design comes from: the real code or proposal it reads.
const char* OriginOf(StoreDesign design);

// The options `scenario`'s stores are built with: its design and its log's
// tombstone settings.
StoreOptions StoreOptionsOf(const Scenario& scenario);

}  // namespace durasim
