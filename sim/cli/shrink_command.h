// `durasim shrink FILE`: shrinks a chosen failing scenario file later (a
// failure file written unshrunk, or one a person wrote), with the shrinker
// of sim/explore/shrink.h. What it keeps failing is what the file shows:
// a file that expects pass and does not get it keeps its failure (a
// production bug's regression file); a file that expects a violation and
// shows it keeps that (a mutant's kill file). The file's expectation, name
// and mutant stay; its header comment stays, with the "first violation"
// line taken from the shrunk run and a line saying how it was shrunk.
//
// Threads and the wall clock (the shrink budget) live here, outside sim/
// and model/.
#pragma once

#include <string>

#include "sim/run/runner.h"

namespace durasim {

struct ShrinkCommandOptions {
  std::string path;
  std::string out;  // empty: the file itself, replaced atomically
  double budget_s = 60;
  RunOptions run;
  bool cpu_pin = true;  // --no-cpu-pin clears it
};

// 0 shrunk and written; 2 the file does not parse, or it is no failure
// (it is as expected and expects pass, or it does not show the violation it
// expects); 7 the result could not be written (its YAML goes to stderr);
// 128 + the signal when interrupted (what it has is still written).
int RunShrinkCommand(const ShrinkCommandOptions& options);

// The comment lines at the top of a scenario file, without "# ", without
// the lines a shrink rewrites ("first violation:", "shrunk", "not shrunk").
std::vector<std::string> KeptHeaderLines(const std::string& text);

}  // namespace durasim
