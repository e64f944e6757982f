// `durasim merge-reports --out FILE REPORT...`: the JSON reports of explore
// shards merged into one (sim/explore/merge_reports.h).
#include "sim/cli/cli_options.h"
#include "sim/cli/command.h"
#include "sim/explore/merge_reports.h"

namespace durasim {

Command AddMergeReportsCommand(CLI::App& app) {
  struct MergeState {
    std::string out;
    std::vector<std::string> in;
    bool require_coverage = false;
    int64_t require_pairs = 0;
  };
  auto state = std::make_shared<MergeState>();
  CLI::App& merge = *app.add_subcommand("merge-reports", "merge the JSON reports of explore shards");
  merge.add_option("--out", state->out, "merged report")->required();
  merge.add_option("reports", state->in, "shard reports")->required();
  merge.add_flag("--require-coverage", state->require_coverage, "fail when a fault kind never fired in any shard");
  merge.add_option("--require-pairs", state->require_pairs,
                   "fail when a pair of coverage points that can meet was hit together by fewer seeds")
      ->check(WholeNumber(0, "a count of seeds"));
  return {&merge, [state] {
            return MergeReports(state->out, state->in, state->require_coverage, state->require_pairs);
          }};
}

}  // namespace durasim
