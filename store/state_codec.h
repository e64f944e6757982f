// The on-log encoding of action states: record keys
// "<key>_<seq>_<eventHash>_<actionHash>" and versioned JSON values.
//
// The input key may contain '_' and any other character: the record key is
// parsed from the right, where the last three fields never contain '_'.
// The value repeats the state key, so a record key that disagrees with its
// value is detected.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/status.h"
#include "store/action_state.h"
#include "store/state_value.h"

namespace durasim {

std::string EncodeRecordKey(const StateKey& state_key);
// Whether `record_key` is EncodeRecordKey(state_key), without building it.
bool IsRecordKeyOf(std::string_view record_key, const StateKey& state_key);
Result<StateKey> ParseRecordKey(const std::string& record_key);

std::string EncodeStateValue(const StateKey& state_key, const ActionState& state);

// Errors are kInvalidRecovery naming what is wrong with the value.
Result<DecodedState> DecodeStateValue(const std::string& value);

// A digest of a state's content, equal for equal (state key, state) pairs:
// cheaper than hashing the encoded value, and what the harness compares
// states by.
uint64_t StateDigest(const StateKey& state_key, const ActionState& state);

// The partition of an input key: a stable hash of the key, modulo partitions.
// REQUIRES: partitions >= 1.
int32_t PartitionForKey(const std::string& key, int32_t partitions);

// The record of a committed cleanup (#1101: the boundary is recorded before
// the data goes): key `<input key>_cleanup`, which no state's record key
// can be (those end in hex fields), value the highest sequence number of
// the key whose states the cleanup pruned, in decimal.
std::string EncodeCleanupKey(const std::string& input_key);
// The input key of a cleanup record's key, or nothing for any other key.
std::optional<std::string> ParseCleanupKey(const std::string& record_key);
// The sequence number in a cleanup record's value, or nothing when it is
// no decimal number >= 0.
std::optional<int64_t> ParseCleanupValue(const std::string& value);

}  // namespace durasim
