// A restore's union list of recovery markers written by hand
// (`restore: {checkpoint: <id>, markers: [...]}`, docs/scenarios.md "Markers
// written by hand"), and the harness's own statement of which such lists a
// store must reject, independent of the store's code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "store/recovery_marker.h"

namespace durasim {

// The markers `specs` state: each unstated field that of `own` (the
// checkpoint's own markers merged); kLogEnd offsets are `log_ends` (by
// partition) of the partitions `own` names. A version-1 marker has no topic
// and no completed boundaries.
// REQUIRES: `log_ends` covers every partition `own` names.
std::vector<RecoveryMarker> HandMadeMarkers(const std::vector<HandMadeMarkerSpec>& specs, const RecoveryMarker& own,
                                            const std::vector<int64_t>& log_ends);

// Why every store must reject `markers`, or nothing: an entry of a version no
// store writes (neither 1 nor 2), a version-2 entry of another topic than
// `own_topic`, with `tombstones` a version-1 entry (it holds no completed
// boundaries), or a merged marker (per partition the smallest offset) whose
// partitions are not 0..n-1 of the `log_ends.size()` the topic has, or with
// an offset past its partition's end. A list it passes is judged as the
// checkpoint's own would be: by the log's lifecycle (LogLifecycle::WhyStale).
std::optional<std::string> WhyHandMadeUnusable(const std::vector<RecoveryMarker>& markers,
                                               const TopicIdentity& own_topic, bool tombstones,
                                               const std::vector<int64_t>& log_ends);

// One hand-made marker as the trace shows it: `v2 {0: 3}`, `v1 {0: 3}`, a
// fluss marker (no topic to name) as its offsets `{0: 3}`, and
// `v2 topic="t" {0: 3}` when it names another topic than `own_topic` (the
// state topic's name and incarnation are left out: they differ between
// backends).
std::string DescribeHandMadeMarker(const RecoveryMarker& marker, const TopicIdentity& own_topic);

}  // namespace durasim
