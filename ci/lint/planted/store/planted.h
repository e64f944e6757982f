// A planted violation for the lint self-tests (ci/CMakeLists.txt): the
// ground floor includes the model, and a deterministic file reads the wall
// clock and iterates an unordered container. Never compiled.
#pragma once
#include <chrono>
#include <unordered_map>

#include "model/world.h"

inline long long PlantedNow() { return std::chrono::steady_clock::now().time_since_epoch().count(); }
inline std::unordered_map<int, int> planted_map;
