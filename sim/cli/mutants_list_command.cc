// `durasim mutants-list`: the bug zoo, each mutant with where it comes from
// and the invariant that must catch it (properties/mutants/).
#include <iostream>

#include "model/store_designs.h"
#include "properties/mutants/mutant.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"

namespace durasim {

Command AddMutantsListCommand(CLI::App& app) {
  CLI::App* list = app.add_subcommand("mutants-list", "list the registered mutants");
  return {list, [] {
            for (const Mutant& m : AllMutants()) {
              std::cout << m.name << "\n  " << m.description << "\n  from: " << m.origin
                        << "\n  caught by: " << NameOf(m.expected_invariant);
              for (const auto& [design, invariant] : m.expected_on) {
                std::cout << " (" << NameOf(invariant) << " on " << NameOf(design) << ")";
              }
              if (m.DesignSpecific()) {
                std::cout << "\n  designs:";
                for (StoreDesign design : m.designs) std::cout << " " << NameOf(design);
                std::cout << " only";
              }
              std::cout << "\n";
            }
            return kExitOk;
          }};
}

}  // namespace durasim
