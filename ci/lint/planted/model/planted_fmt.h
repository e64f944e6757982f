// A planted violation for the floors lint's self-test (ci/CMakeLists.txt):
// fmt included directly, not through store/format.h. Never compiled.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>
