// Suggestion implementation.
#include "sim/suggest.h"

#include <algorithm>
#include <cctype>

#include "store/check.h"

namespace durasim {
namespace {

bool Same(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours ("rnu" is one edit from "run").
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (Same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && Same(a[i - 1], b[j - 2]) && Same(a[i - 2], b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  const size_t distance = d[a.size()][b.size()];
  const size_t longer = std::max(a.size(), b.size());
  const size_t shorter = std::min(a.size(), b.size());
  // Never more edits than the longer name has letters, nor fewer than the lengths differ by.
  DURASIM_CHECK_LE(distance, longer);
  DURASIM_CHECK_GE(distance, longer - shorter);
  return distance;
}

}  // namespace

std::optional<std::string> ClosestName(const std::string& typed, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const size_t distance = EditDistance(typed, candidate);
    const size_t allowed = std::max<size_t>(1, std::max(typed.size(), candidate.size()) / 3);
    if (distance > allowed) continue;
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& typed, const std::vector<std::string>& candidates) {
  const std::optional<std::string> closest = ClosestName(typed, candidates);
  return closest ? " (did you mean \"" + *closest + "\"?)" : "";
}

}  // namespace durasim
