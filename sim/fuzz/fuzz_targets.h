// The fuzz targets: what one input is fed to, and what must hold for it
// besides "no crash, no sanitizer report, within the time and memory bound"
// (which the driver, sim/fuzz/fuzz_driver.h, watches from outside).
//
// - scenario: the scenario parser on the input as a file; an error must be
//   "<path>:<line>:<column>: <what>" with a line and column inside the file;
//   a file that parses is run, in process, on the model backend.
// - state: the state record decoder (store/state_codec.h) on
//   "<record key>\n<record value>"; what decodes must encode back to an
//   equal state and key.
// - marker: the recovery marker checks (store/recovery_marker.h) on a
//   marker, the store's topic and its partitions' offsets described as text
//   (sim/fuzz/corpus/marker/*.txt); an accepted marker must lie inside the
//   log it was checked against.
//
// The same functions back the libFuzzer entry points (sim/fuzz/libfuzzer_*.cc).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace durasim {

enum class FuzzTarget { kScenario, kState, kMarker };

const char* FuzzTargetName(FuzzTarget target);
std::optional<FuzzTarget> ParseFuzzTarget(std::string_view name);
// The file extension of a target's inputs: ".yaml", ".state", ".txt".
const char* FuzzTargetExtension(FuzzTarget target);

struct TargetResult {
  std::string outcome;  // what the input came to, for the statistics ("parse-error", "run pass ok")
  std::string problem;  // non-empty: a property of the target failed (a finding)
};

// The path scenario inputs are parsed under: every parser error must name it.
inline constexpr const char* kFuzzScenarioPath = "fuzz-input.yaml";

TargetResult RunScenarioTarget(const std::string& input);
TargetResult RunStateTarget(const std::string& input);
TargetResult RunMarkerTarget(const std::string& input);
TargetResult RunTarget(FuzzTarget target, const std::string& input);

// Whether `message` is "<path>:<line>:<column>: <what>" with 1 <= line <=
// lines of `text` + 1 and column >= 1; when not, why.
std::optional<std::string> LocatedErrorProblem(const std::string& message, const std::string& path,
                                               const std::string& text);

}  // namespace durasim
