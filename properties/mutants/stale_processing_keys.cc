// StaleProcessingKeysRuntime implementation.
#include "properties/mutants/stale_processing_keys.h"

namespace durasim {

std::vector<std::string> StaleProcessingKeysRuntime::RestoredProcessingKeys(const Checkpoint& checkpoint) const {
  std::vector<std::string> all;  // the bug: neither filtered by ownership nor made distinct
  for (const std::vector<std::string>& keys : checkpoint.processing_keys) all.insert(all.end(), keys.begin(), keys.end());
  return all;
}

std::vector<std::string> StaleProcessingKeysRuntime::ProcessingKeys() const {
  std::vector<std::string> keys = AgentRuntime::ProcessingKeys();
  for (const std::string& key : restored_processing_keys_) {
    if (!Owns(key)) keys.push_back(key);  // the bug: a foreign key it kept is snapshotted again
  }
  return keys;
}

}  // namespace durasim
