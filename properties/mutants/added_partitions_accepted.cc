// AddedPartitionsAcceptedStore: all in its header (a constructor that drops
// one option); this file keeps the mutant's file pair.
#include "properties/mutants/added_partitions_accepted.h"
