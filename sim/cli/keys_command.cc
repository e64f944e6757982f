// `durasim keys`: which subtask owns each input key at each parallelism
// (sim/view/key_owners.h), so that a rescale scenario moves a key on
// purpose. `durasim keys --parallelism 2,3 a b c`, or `durasim keys FILE`
// (the file's input keys and the parallelisms its attempts run at).
#include <algorithm>
#include <iostream>
#include <memory>

#include "model/key_groups.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/exit_codes.h"
#include "sim/scenario/scenario_parser.h"
#include "sim/view/key_owners.h"
#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

struct KeysState {
  std::vector<std::string> args;  // keys, or one scenario file
  std::vector<int32_t> parallelisms;
  int32_t max_parallelism = kDefaultMaxParallelism;
  bool max_given = false;
};

bool IsScenarioPath(const std::string& arg) { return arg.ends_with(".yaml") || arg.ends_with(".yml"); }

int Keys(const KeysState& state) {
  KeyOwners owners;
  if (state.args.size() == 1 && IsScenarioPath(state.args.front())) {
    Result<Scenario> scenario = LoadScenarioFile(state.args.front());
    if (!scenario.ok()) {
      std::cerr << scenario.status().message() << "\n";
      return kExitUsage;
    }
    owners = KeyOwnersOf(*scenario);
    if (state.max_given) owners.max_parallelism = state.max_parallelism;
  } else {
    for (const std::string& arg : state.args) {
      if (IsScenarioPath(arg)) {
        std::cerr << fmt::format("durasim: keys takes keys or one scenario file, not both: {}\n", arg);
        return kExitUsage;
      }
      if (std::find(owners.keys.begin(), owners.keys.end(), arg) == owners.keys.end()) owners.keys.push_back(arg);
    }
    owners.max_parallelism = state.max_parallelism;
    owners.parallelisms = {1};
  }
  if (!state.parallelisms.empty()) owners.parallelisms = state.parallelisms;
  std::sort(owners.parallelisms.begin(), owners.parallelisms.end());
  owners.parallelisms.erase(std::unique(owners.parallelisms.begin(), owners.parallelisms.end()),
                            owners.parallelisms.end());
  for (int32_t p : owners.parallelisms) {
    if (p > owners.max_parallelism) {
      std::cerr << fmt::format("durasim: --parallelism {} exceeds the max parallelism {} (--max-parallelism)\n", p,
                               owners.max_parallelism);
      return kExitUsage;
    }
  }
  DURASIM_CHECK(!owners.parallelisms.empty() && !owners.keys.empty());  // a file has inputs; keys are required
  std::cout << KeyOwnersTable(owners);
  return kExitOk;
}

}  // namespace

Command AddKeysCommand(CLI::App& app) {
  auto state = std::make_shared<KeysState>();
  CLI::App* keys = app.add_subcommand(
      "keys", "which subtask owns each key at each parallelism (key -> key group -> subtask, as Flink assigns them)");
  keys->add_option("keys", state->args, "input keys, or one scenario file (its keys and its attempts' parallelisms)")
      ->required();
  keys->add_option("--parallelism", state->parallelisms, "parallelisms to show, comma-separated (default: 1, or the file's)")
      ->delimiter(',')
      ->allow_extra_args(false)  // `--parallelism 2,3 a b`: the keys are not parallelisms
      ->check(CLI::Range(1, kMaxParallelismUpperBound));
  CLI::Option* max = keys->add_option("--max-parallelism", state->max_parallelism,
                                      "Flink's max parallelism: the number of key groups (default 128, or the file's)")
                        ->check(CLI::Range(1, kMaxParallelismUpperBound));
  return {keys, [state, max] {
            state->max_given = max->count() > 0;
            return Keys(*state);
          }};
}

}  // namespace durasim
