// "Did you mean": the known name closest to a mistyped one, for the CLI's
// error messages (subcommands, mutant names).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace durasim {

// The candidate with the smallest edit distance (with transpositions, ASCII
// case folded) to `typed`, when that distance is at most a third of the longer
// name's length (at least 1); the first such candidate on a tie. None when
// nothing is that close.
std::optional<std::string> ClosestName(const std::string& typed, const std::vector<std::string>& candidates);

// " (did you mean \"run\"?)" or "".
std::string DidYouMean(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace durasim
