// What the commands share (sim/cli/cli_options.h).
#include "sim/cli/cli_options.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "properties/mutants/mutant.h"
#include "sim/cpu_pin.h"
#include "sim/exit_codes.h"
#include "sim/output_file.h"
#include "sim/suggest.h"
#include "sim/view/key_owners.h"
#include "store/format.h"

namespace durasim {
namespace {

namespace fs = std::filesystem;

// The *.yaml and *.yml files under `folder`, sorted, skipping malformed/.
Status CollectFolder(const std::string& folder, std::vector<std::string>& files) {
  std::error_code error;
  std::vector<std::string> found;
  for (auto it = fs::recursive_directory_iterator(folder, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_directory() && it->path().filename() == "malformed") {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path extension = it->path().extension();
    if (it->is_regular_file() && (extension == ".yaml" || extension == ".yml")) found.push_back(it->path().string());
  }
  if (error) return Status(StatusCode::kInvalidArgument, folder + ": " + error.message());
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return Status::Ok();
}

// "log backend: model (in-memory), mock (...), kafka (...)".
std::string BackendHelp() {
  std::string list;
  for (BackendKind kind : AllOf<BackendKind>()) {
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", NameOf(kind), DescriptionOf(kind));
  }
  return "log backend: " + list;
}

std::vector<std::string> MutantNames() {
  std::vector<std::string> names;
  for (const Mutant& m : AllMutants()) names.push_back(m.name);
  return names;
}

}  // namespace

Result<std::vector<std::string>> CollectScenarioFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      if (Status collected = CollectFolder(path, files); !collected.ok()) return collected;
    } else if (fs::is_regular_file(path, error)) {
      files.push_back(path);
    } else {
      return Status(StatusCode::kInvalidArgument, path + ": no such file or folder");
    }
  }
  if (files.empty()) return Status(StatusCode::kInvalidArgument, "no scenario files (*.yaml, *.yml) found");
  return files;
}

void PrintTrace(const RunReport& report, const Scenario& scenario, const TraceFlags& flags, const std::string& title) {
  if (!flags.wanted() || (flags.failing && report.ok)) return;
  if (!title.empty()) std::cout << title << "\n";
  if (flags.raw && !flags.filter.any()) {
    for (size_t i = 0; i < report.trace.size(); ++i) std::cout << "  " << report.trace.line(i) << "\n";
    return;
  }
  // A run of more than one subtask: who owns each key, first (durasim keys).
  const KeyOwners owners = KeyOwnersOf(scenario);
  if (!owners.parallelisms.empty() && owners.parallelisms.back() > 1) {
    std::cout << "  key owners (durasim keys):\n";
    std::istringstream table(KeyOwnersTable(owners));
    for (std::string line; std::getline(table, line);) std::cout << "    " << line << "\n";
  }
  for (const std::string& line : ReadableTrace(report, scenario, flags.filter)) std::cout << "  " << line << "\n";
}

void AddTraceOptions(CLI::App& command, TraceFlags& flags, bool every_run) {
  if (every_run) {
    command.add_flag("--trace", flags.print,
                     "print every run's trace, readable: event numbers (the #N violations cite), action and event "
                     "names, what each record holds");
    command.add_flag("--trace-raw", flags.raw,
                     "print the trace lines exactly as rendered (FNV-1a over them is --text-hash's trace_text_hash)");
  }
  command.add_flag("--trace-failing", flags.failing, "print the trace only of runs that were not as expected");
  command.add_option_function<std::string>(
      "--trace-key", [&flags](const std::string& key) { flags.filter.key = key; },
      "print only the trace lines of this input key (and those that name no key)");
  command.add_option_function<int>(
      "--trace-attempt", [&flags](int attempt) { flags.filter.attempt = attempt; },
      "print only the trace lines of this attempt (1-based)")
      ->check(CLI::Range(1, 1'000'000));
  command.add_option_function<int32_t>(
      "--trace-subtask", [&flags](int32_t subtask) { flags.filter.subtask = subtask; },
      "print only the trace lines of this subtask (by the owner of a line's key in its attempt)")
      ->check(CLI::Range(0, 1'000'000));
}

void AddBackendOptions(CLI::App& command, BackendKind& backend, std::string& bootstrap_servers, bool& compare_model,
                       double& broker_check_s, int& infra_errors_max, bool& cpu_pin) {
  command
      .add_option_function<std::string>(
          "--backend", [&backend](const std::string& name) { backend = ParseName<BackendKind>(name).value(); },
          BackendHelp())
      ->check(CLI::IsMember(NamesOf<BackendKind>()))
      ->default_str(NameOf(backend));
  command.add_option("--bootstrap-servers", bootstrap_servers, "the broker for --backend kafka; the Fluss gateway for --backend fluss (ci/fluss/)");
  command.add_flag("--compare-model", compare_model,
                   "also run on the model; any different observation, down to the trace, is a failure");
  command
      .add_option("--broker-check-s", broker_check_s,
                  "mock, kafka and fluss: how long the broker (the gateway) may take to answer the check at the start (and after a run "
                  "ended infra, before the next); 0: no checks")
      ->check(Seconds());
  command
      .add_option("--infra-errors-max", infra_errors_max,
                  "mock, kafka and fluss: stop after this many runs in a row ended infra (the broker failed); 0: never stop")
      ->check(CLI::Range(0, 1'000'000));
  command.add_flag_callback(
      "--no-cpu-pin", [&cpu_pin] { cpu_pin = false; },
      "mock: leave each worker (and the librdkafka threads it starts) free to run on any CPU; by default each is "
      "pinned to one CPU, which cuts the CPU time of librdkafka's round trips (docs/backends.md)");
}

void PinCommandThread(BackendKind backend, bool cpu_pin) {
  if (!PinsThreads(backend, cpu_pin)) return;
  const Result<int> cpu = CpuPins::FromCallingThread().Pin(0);
  if (!cpu.ok()) std::cerr << "durasim: " << cpu.status().message() << "; running unpinned\n";
}

std::optional<int> CheckBackendAtStart(const InfraOptions& options) {
  const Status checked = CheckBrokerAtStart(options);
  if (checked.ok()) return std::nullopt;
  std::cerr << "durasim: " << checked.message() << "\n";
  if (checked.code() == StatusCode::kInvalidArgument) return kExitUsage;
  std::cerr << fmt::format("durasim: nothing ran: the broker did not pass the check at the start (exit {}; "
                           "--broker-check-s sets its deadline, 0 skips it)\n",
                           kExitInfra);
  return kExitInfra;
}

CLI::Validator WholeNumber(uint64_t minimum, const std::string& what) {
  return CLI::Validator(
      [minimum, what](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          if (!text.empty() && text[0] == '-') return fmt::format("cannot be negative, got {}", text);
          return fmt::format("{} is a whole number, got \"{}\"", what, text);
        }
        uint64_t value = 0;
        try {
          value = std::stoull(text);
        } catch (const std::exception&) {
          return fmt::format("must be at most 2^64 - 1, got {}", text);
        }
        if (value < minimum) return fmt::format("must be at least {}, got {}", minimum, text);
        return "";
      },
      minimum == 0 ? "N>=0" : fmt::format("N>={}", minimum));
}

CLI::Validator Jobs() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        int value = 0;
        try {
          size_t used = 0;
          value = std::stoi(text, &used);
          if (used != text.size()) value = 0;
        } catch (const std::exception&) {
          value = 0;
        }
        if (value < 1 || value > 256) return fmt::format("takes 1 to 256 worker threads, got {}", text);
        return "";
      },
      "1..256");
}

CLI::Validator Seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          size_t used = 0;
          const double value = std::stod(text, &used);
          if (used == text.size() && value >= 0) return "";
        } catch (const std::exception&) {
        }
        return fmt::format("takes seconds (0 or more), got {}", text);
      },
      "SECONDS");
}

std::string LeftOutLine(const LeftOutFile& file) {
  return fmt::format("not run on store design {}: {}: {}", file.store, file.path, file.why);
}

std::vector<LeftOutFile> LeaveOutNotRunnable(std::vector<Scenario>& scenarios, std::optional<StoreDesign> store,
                                             const std::optional<std::string>& mutant_option, BackendKind backend) {
  std::vector<LeftOutFile> lines;
  const size_t given = scenarios.size();
  std::erase_if(scenarios, [&](const Scenario& scenario) {
    const StoreDesign design = scenario.store_named ? scenario.store : store.value_or(scenario.store);
    std::optional<std::string> why;
    if (!scenario.store_named) why = NotRunnableOn(scenario, design);
    const std::optional<std::string> mutant_name = mutant_option ? mutant_option : scenario.mutant;
    const Mutant* mutant = mutant_name ? FindMutant(*mutant_name) : nullptr;
    if (!why && mutant != nullptr) why = WhyNotOn(*mutant, design);
    if (!why && backend == BackendKind::kFluss && design != StoreDesign::kFluss) why = kFlussBackendOnly;
    if (why) lines.push_back(LeftOutFile{scenario.path, NameOf(design), *why});
    return why.has_value();
  });
  DURASIM_CHECK_EQ(scenarios.size() + lines.size(), given);  // each file run or named
  return lines;
}

bool MutantAppliesToStore(const std::string& mutant, std::optional<StoreDesign> store) {
  const Mutant* found = mutant.empty() ? nullptr : FindMutant(mutant);
  const std::optional<std::string> why = found && store ? WhyNotOn(*found, *store) : std::nullopt;
  if (why) std::cerr << "durasim: " << *why << " (--store)\n";
  return !why.has_value();
}

bool KnownMutant(const std::string& name) {
  if (name.empty() || FindMutant(name) != nullptr) return true;
  std::cerr << "durasim: unknown mutant \"" << name << "\"" << DidYouMean(name, MutantNames())
            << "; see `durasim mutants-list`\n";
  return false;
}

void AddStoreOption(CLI::App& command, std::optional<StoreDesign>& store, const std::string& help) {
  command
      .add_option_function<std::string>(
          "--store",
          [&store](const std::string& name) {
            std::optional<StoreDesign> design = ParseName<StoreDesign>(name);
            if (!design) {
              throw CLI::ValidationError("--store", "unknown store design \"" + name + "\"" +
                                                        DidYouMean(name, NamesOf<StoreDesign>()) +
                                                        "; see `durasim stores-list`");
            }
            store = design;
          },
          help)
      ->type_name("DESIGN");
}

void WriteReport(const std::string& path, const std::string& contents, std::vector<std::string>& unwritten) {
  if (path.empty()) return;
  const Status written = WriteFile(path, contents);
  if (written.ok()) return;
  std::cerr << "durasim: " << written.message() << "\n";
  unwritten.push_back(path);
}

}  // namespace durasim
