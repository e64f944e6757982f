// MarkerWithoutTopicIdentityStore implementation.
#include "properties/mutants/marker_without_topic_identity.h"

namespace durasim {

Result<RecoveryMarker> MarkerWithoutTopicIdentityStore::GetRecoveryMarker(const CompletedBoundaries& completed) {
  Result<RecoveryMarker> marker = KafkaActionStateStore::GetRecoveryMarker(completed);
  if (marker.ok()) marker->topic = TopicIdentity{};  // the bug: offsets only
  return marker;
}

Status MarkerWithoutTopicIdentityStore::Rebuild(const RecoveryMarker& marker) {
  // The bug: with no identity in the marker, the topic read now is taken
  // for the one the marker came from; only the offsets are checked.
  Result<TopicIdentity> topic = client_.Topic();
  if (!topic.ok()) return topic.status();
  RecoveryMarker assumed = marker;
  assumed.topic = *topic;
  return KafkaActionStateStore::Rebuild(assumed);
}

}  // namespace durasim
