// Merges the JSON reports of explore shards (`--shard I/N`) into one, as a
// CI matrix or batch scheduler would: seeds are united and sorted, coverage
// is recomputed over all of them.
#pragma once

#include <string>
#include <vector>

namespace durasim {

// Writes the merged report to `out_path` and prints a summary. Returns the
// exit code explore would have returned for the union (ExitCodeFor), or
// kExitUsage when an input cannot be read.
int MergeReports(const std::string& out_path, const std::vector<std::string>& in_paths, bool require_coverage,
                 int64_t require_pairs = 0);

}  // namespace durasim
