// A planted violation for the room lint (ci/CMakeLists.txt): the scenario
// language includes a later room. Never compiled.
#pragma once

#include "sim/view/report.h"
