// The other half of the planted include circle (planted_long.cc).
#include "properties/planted_long.h"
