// Report rendering.
#include "sim/view/report.h"

#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "store/check.h"
#include "store/format.h"

namespace durasim {
namespace {

std::string Outputs(const std::vector<int64_t>& outputs) {
  constexpr size_t kShown = 6;
  if (outputs.size() <= kShown) return fmt::format("[{}]", fmt::join(outputs, ","));
  std::vector<int64_t> head(outputs.begin(), outputs.begin() + kShown);
  return fmt::format("[{},... {} total]", fmt::join(head, ","), outputs.size());
}

// "3/3": armed faults that fired, of those armed; "-" when none was armed.
std::string FiredColumn(const RunReport& r) {
  if (r.armed_faults.empty()) return "-";
  size_t fired = 0;
  for (const ArmedFault& fault : r.armed_faults) fired += fault.fired_at.has_value() ? 1 : 0;
  return fmt::format("{}/{}", fired, r.armed_faults.size());
}

// "reject_put nth=5 (12:9, attempt 1): fired at #45, put=complete".
std::string DescribeArmedFault(const ArmedFault& fault) {
  std::string where = fault.fired_at ? fmt::format("fired at #{}", *fault.fired_at) : "never fired";
  if (fault.hit.put) where += fmt::format(", put={}", NameOf(*fault.hit.put));
  if (fault.fired_at) where += DescribeFaultPoint(fault.hit);
  return fmt::format("{} nth={}{} ({}:{}, attempt {}): {}", NameOf(fault.kind), fault.nth,
                     fault.subtask ? fmt::format(" subtask={}", *fault.subtask) : "", fault.pos.line, fault.pos.column,
                     fault.attempt, where);
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string DumpJson(const nlohmann::json& doc) {
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RenderTable(const std::vector<RunReport>& reports) {
  std::string out = fmt::format("{:<44} {:<10} {:<4} {:>6} {:<22} {:>14} {:<5} {:<16}\n", "scenario", "verdict", "ok",
                                "calls", "outputs", "sim time", "fired", "trace hash");
  size_t ok = 0;
  size_t infra = 0;
  for (const RunReport& r : reports) {
    ok += r.ok ? 1 : 0;
    infra += r.verdict == Verdict::kInfra ? 1 : 0;
    const std::string name = r.mutant.empty() ? r.scenario : fmt::format("{} [{}]", r.scenario, r.mutant);
    out += fmt::format("{:<44} {:<10} {:<4} {:>6} {:<22} {:>14} {:<5} {:016x}\n", name, NameOf(r.verdict),
                       r.ok ? "yes" : "NO", r.supplier_calls, Outputs(r.outputs),
                       fmt::format("{:.3f}ms", r.sim_time.count() / 1000.0), FiredColumn(r), r.trace_hash);
  }
  for (const RunReport& r : reports) {
    if (r.violations.empty() && r.mismatches.empty() && r.error.empty() && r.failed_checkpoints.empty()) continue;
    out += fmt::format("\n{} ({}){}:\n", r.scenario, r.path, r.mutant.empty() ? "" : " mutant " + r.mutant);
    if (!r.error.empty()) out += fmt::format("  error: {}\n", r.error);
    for (const Violation& v : r.violations) out += fmt::format("  violation [{}]: {}\n", NameOf(v.invariant), v.message);
    for (const std::string& m : r.mismatches) out += fmt::format("  not as expected: {}\n", m);
    for (const std::string& failed : r.failed_checkpoints) out += fmt::format("  checkpoint failed: {}\n", failed);
    if (r.violations.empty() && r.mismatches.empty() && r.error.empty()) continue;
    for (const ArmedFault& fault : r.armed_faults) out += fmt::format("  fault {}\n", DescribeArmedFault(fault));
    if (!r.unfinished_inputs.empty()) {
      out += fmt::format("  unfinished inputs: {}\n", fmt::join(r.unfinished_inputs, ", "));
    }
  }
  DURASIM_CHECK_LE(ok + infra, reports.size());  // an infra run is never ok (not judged)
  out += fmt::format("\n{} runs, {} as expected, {} not{}\n", reports.size(), ok, reports.size() - ok - infra,
                     infra == 0 ? ""
                                : fmt::format(", {} infra (not judged: the broker failed, or a signal stopped the run)",
                                              infra));
  return out;
}

std::string RenderJson(const std::vector<RunReport>& reports, bool interrupted, const std::string& infra_stop,
                       const std::vector<LeftOutFile>& left_out) {
  nlohmann::json runs = nlohmann::json::array();
  size_t ok = 0;
  size_t infra = 0;  // not judged: neither ok nor not ok
  for (const RunReport& r : reports) {
    ok += r.ok ? 1 : 0;
    infra += r.verdict == Verdict::kInfra ? 1 : 0;
    nlohmann::json violations = nlohmann::json::array();
    for (const Violation& v : r.violations) violations.push_back({{"invariant", NameOf(v.invariant)}, {"message", v.message}});
    nlohmann::json armed = nlohmann::json::array();
    for (const ArmedFault& fault : r.armed_faults) {
      armed.push_back({{"attempt", fault.attempt},
                       {"fault", NameOf(fault.kind)},
                       {"nth", fault.nth},
                       {"subtask", fault.subtask ? nlohmann::json(*fault.subtask) : nlohmann::json(nullptr)},
                       {"line", fault.pos.line},
                       {"column", fault.pos.column},
                       {"fired", fault.fired_at.has_value()},
                       {"fired_at_event", fault.fired_at ? nlohmann::json(*fault.fired_at) : nlohmann::json(nullptr)},
                       {"put", fault.hit.put ? nlohmann::json(NameOf(*fault.hit.put)) : nlohmann::json(nullptr)},
                       {"key", fault.hit.state ? nlohmann::json(fault.hit.state->key) : nlohmann::json(nullptr)},
                       {"seq", fault.hit.state ? nlohmann::json(fault.hit.state->seq) : nlohmann::json(nullptr)},
                       {"call", fault.hit.call ? nlohmann::json(*fault.hit.call) : nlohmann::json(nullptr)}});
    }
    runs.push_back({{"scenario", r.scenario},
                    {"path", r.path},
                    {"mutant", r.mutant.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.mutant)},
                    {"backend", NameOf(r.backend)},
                    {"verdict", NameOf(r.verdict)},
                    {"ok", r.ok},
                    {"mismatches", r.mismatches},
                    {"supplier_calls", r.supplier_calls},
                    {"outputs", r.outputs},
                    {"trace_hash", fmt::format("{:016x}", r.trace_hash)},
                    {"sim_time_us", r.sim_time.count()},
                    {"violations", violations},
                    {"armed_faults", armed},
                    {"unfinished_inputs", r.unfinished_inputs},
                    {"failed_checkpoints", r.failed_checkpoints},
                    {"error", r.error}});
    // Only with --text-hash (RunOptions::text_hash).
    if (r.trace_text_hash) runs.back()["trace_text_hash"] = fmt::format("{:016x}", *r.trace_text_hash);
  }
  DURASIM_CHECK_LE(ok + infra, reports.size());  // an infra run is never ok (not judged)
  nlohmann::json left = nlohmann::json::array();
  for (const LeftOutFile& file : left_out) left.push_back({{"path", file.path}, {"store", file.store}, {"why", file.why}});
  nlohmann::json doc = {{"runs", runs},
                        {"summary",
                         {{"runs", reports.size()},
                          {"ok", ok},
                          {"not_ok", reports.size() - ok - infra},
                          {"infra", infra},
                          {"left_out", left_out.size()}}},
                        {"interrupted", interrupted},
                        {"infra_stop", infra_stop},
                        {"left_out", left}};
  return DumpJson(doc);
}

std::string RenderJunit(const std::vector<RunReport>& reports, const std::string& reproduce_flags, double wall_s,
                        const std::vector<LeftOutFile>& left_out) {
  size_t failures = 0;
  size_t errors = 0;
  for (const RunReport& r : reports) {
    if (r.verdict == Verdict::kInfra) {
      ++errors;
    } else if (!r.ok) {
      ++failures;
    }
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuite name=\"durasim run\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
      reports.size() + left_out.size(), failures, errors, left_out.size(), wall_s);
  for (const LeftOutFile& file : left_out) {
    out += fmt::format("  <testcase classname=\"durasim.run\" name=\"{}\"><skipped message=\"not run on store design "
                       "{}: {}\"/></testcase>\n",
                       XmlEscape(file.path), XmlEscape(file.store), XmlEscape(file.why));
  }
  for (const RunReport& r : reports) {
    out += fmt::format("  <testcase classname=\"durasim.run\" name=\"{}\">", XmlEscape(r.path));
    if (r.verdict == Verdict::kInfra) {
      // JUnit's error: the test could not run as meant, no failure of the
      // code under test.
      out += fmt::format("<error type=\"infra\" message=\"infra: {}\">{}\nnot judged; run it again once the broker "
                         "is healthy: build/durasim run{} {}\n</error>",
                         XmlEscape(r.error.substr(0, r.error.find('\n'))), XmlEscape(r.error),
                         XmlEscape(reproduce_flags), XmlEscape(r.path));
    } else if (!r.ok) {
      std::string body = fmt::format("reproduce: build/durasim run{} {}\n", reproduce_flags, r.path);
      if (!r.error.empty()) body += fmt::format("error: {}\n", r.error);
      for (const Violation& v : r.violations) body += fmt::format("violation [{}]: {}\n", NameOf(v.invariant), v.message);
      for (const std::string& m : r.mismatches) body += fmt::format("not as expected: {}\n", m);
      // An error's cause in the message too, not only in the body.
      const std::string first = r.mismatches.empty() ? std::string("not as expected") : r.mismatches.front();
      out += fmt::format("<failure message=\"{}: {}{}\">{}</failure>", NameOf(r.verdict), XmlEscape(first),
                         r.verdict == Verdict::kError && !r.error.empty()
                             ? XmlEscape("; error: " + r.error.substr(0, r.error.find('\n')))
                             : "",
                         XmlEscape(body));
    }
    out += "</testcase>\n";
  }
  out += "</testsuite>\n";
  return out;
}

}  // namespace durasim
