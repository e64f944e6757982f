// WorkerPoolSkipsDrainRuntime: all in its header (one seam); this file
// keeps the mutant's file pair.
#include "properties/mutants/worker_pool_skips_drain.h"
