// TombstonesWithoutBoundaryStore: everything is in the header; this file
// keeps the mutant a file pair like the others.
#include "properties/mutants/tombstones_without_boundary.h"
