// `durasim stores-list`: the store designs a run can check (`store:` in a
// scenario, `--store`), one line each, with where each comes from.
#include <iostream>

#include "model/store_designs.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "store/format.h"

namespace durasim {

Command AddStoresListCommand(CLI::App& app) {
  CLI::App* list = app.add_subcommand("stores-list", "list the store designs (store: in a scenario, --store)");
  return {list, [] {
            for (StoreDesign design : AllOf<StoreDesign>()) {
              std::cout << fmt::format("{:<14} {} [{}]{}\n", NameOf(design), DescriptionOf(design), OriginOf(design),
                                       design == StoreDesign::kKafkaRewind ? " (default)" : "");
            }
            return kExitOk;
          }};
}

}  // namespace durasim
