// Rendering of run reports: the terminal table and the JSON report.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/output_file.h"
#include "sim/run/runner.h"
#include "store/status.h"

namespace durasim {

// A fixed-width table: scenario, verdict, ok, supplier calls, outputs,
// simulated time, trace hash; then the violations and mismatches.
std::string RenderTable(const std::vector<RunReport>& reports);

// A JSON document as every report writes it: indented, and a string that is
// not valid UTF-8 (an input key of arbitrary bytes) with each invalid byte
// replaced by U+FFFD rather than an exception.
std::string DumpJson(const nlohmann::json& doc);

// Text for an XML attribute or element (the JUnit reports): & < > " escaped.
std::string XmlEscape(const std::string& text);

// A scenario file that was not run because the store design it would run
// on cannot run it (`run --store`, a mutant of other designs): neither a
// pass nor a failure, and reported as such.
struct LeftOutFile {
  std::string path;
  std::string store;  // the design it would have run on
  std::string why;
};

// The JSON report: {"runs": [...], "summary": {...}, "interrupted": bool,
// "infra_stop": string, "left_out": [{"path", "store", "why"}]}.
// `interrupted`: SIGINT/SIGTERM stopped the command before every file ran;
// `infra_stop`: why infrastructure failures in a row stopped it
// (sim/run/infra_guard.h), "" when they did not; `left_out`: the files not
// run, with why (also counted in the summary).
std::string RenderJson(const std::vector<RunReport>& reports, bool interrupted = false,
                       const std::string& infra_stop = "", const std::vector<LeftOutFile>& left_out = {});

// The JUnit XML report of `run --junit`: one test case per scenario file
// (its name the file's path), a failure carrying the verdict, the reasons
// and the command that reproduces it (`reproduce_flags` are the mutant and
// backend flags of the run, each with a leading space). A left-out file is
// a skipped test case whose message says why.
std::string RenderJunit(const std::vector<RunReport>& reports, const std::string& reproduce_flags, double wall_s,
                        const std::vector<LeftOutFile>& left_out = {});

}  // namespace durasim
