// FlussPruneSkipsSeparatorKeysStore: all in its header (one predicate);
// this file keeps the mutant's file pair.
#include "properties/mutants/fluss_prune_skips_separator_keys.h"
