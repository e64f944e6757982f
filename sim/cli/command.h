// The commands of `durasim`, one file each (sim/cli/*_command.cc): each adds
// its subcommand and flags to the app and returns what runs it once the
// command line is parsed. sim/main.cc only dispatches.
//
// Thread-safety: none; built and run on the main thread.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace durasim {

struct Command {
  CLI::App* app = nullptr;   // the subcommand; parsed() after a parse that named it
  std::function<int()> run;  // its exit code (sim/exit_codes.h)
};

// In the order `durasim --help` lists them.
Command AddRunCommand(CLI::App& app);
Command AddExploreCommand(CLI::App& app);
Command AddReplayCommand(CLI::App& app);
Command AddShrinkCommand(CLI::App& app);
Command AddMergeReportsCommand(CLI::App& app);
Command AddMutantsListCommand(CLI::App& app);
Command AddStoresListCommand(CLI::App& app);
Command AddCompareStoresCommand(CLI::App& app);
Command AddMutantsCommand(CLI::App& app);
Command AddInspectCommand(CLI::App& app);
Command AddKeysCommand(CLI::App& app);

}  // namespace durasim
