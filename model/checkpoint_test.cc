// Tests of checkpoints: the union list of recovery markers.
#include "model/checkpoint.h"

#include <gtest/gtest.h>

namespace durasim {
namespace {

// Strategy: the union list's minimum takes each partition's smallest offset
// over every subtask's marker, whichever subtask it came from.
TEST(CheckpointTest, MinimumMarkerIsPerPartition) {
  EXPECT_EQ(MinimumMarker({{{0, 4}, {1, 9}}, {{0, 5}, {1, 2}}, {{0, 7}, {1, 3}}}), (RecoveryMarker{{0, 4}, {1, 2}}));
  EXPECT_EQ(MinimumMarker({{{0, 4}}}), (RecoveryMarker{{0, 4}}));
}

}  // namespace
}  // namespace durasim
