// Planted (planted_long.cc).
#pragma once
