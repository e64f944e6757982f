// Mutator: the fuzzer's small, deterministic mutator over text inputs
// (scenario YAML, state record values, marker descriptions). Each mutation
// is one of the edits that matter for these formats: bytes flipped,
// inserted or deleted, lines duplicated or deleted, values swapped between
// keys, numbers replaced by boundary values, deep nesting, control
// characters, long strings, indentation changed, lines spliced in from
// another corpus file. The same seed input, corpus and Prng state give the
// same mutant, byte for byte (docs/fuzzing.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "properties/prng.h"

namespace durasim {

enum class Mutation {
  kFlipBit,
  kInsertBytes,
  kDeleteBytes,
  kDuplicateLine,
  kDeleteLine,
  kRepeatLines,
  kSwapValues,
  kBoundaryNumber,
  kDeepNesting,
  kControlCharacter,
  kLongString,
  kIndentation,
  kYamlSpecial,
  kSplice,
  kTruncate,
};

// The mutation's name, as reported in findings ("boundary-number").
const char* MutationName(Mutation mutation);

struct MutatorOptions {
  // A mutant longer than this is cut back to it (the fuzzer's memory bound
  // for inputs, not a format limit).
  size_t max_size = 1 << 20;
  // The deepest nesting kDeepNesting inserts.
  int max_nesting = 3000;
  // The longest string kLongString inserts.
  size_t max_long_string = 200'000;
};

// One mutation of `input`, drawn from `prng`; `corpus` gives kSplice its
// other files (may be empty). Appends the mutation to `applied`.
std::string MutateOnce(const std::string& input, const std::vector<std::string>& corpus, Prng& prng,
                       const MutatorOptions& options, std::vector<Mutation>& applied);

// 1 to 4 mutations (mostly 1 or 2) of `input`.
std::string Mutate(const std::string& input, const std::vector<std::string>& corpus, Prng& prng,
                   const MutatorOptions& options, std::vector<Mutation>& applied);

}  // namespace durasim
