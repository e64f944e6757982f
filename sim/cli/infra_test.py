#!/usr/bin/env python3
"""Strategy: fail fast on infrastructure (issue 16 part 3), with nothing
listening at the bootstrap address (a loopback port bound, read back and
closed), no broker needed:

- the check at the start stops run, explore and replay within a few seconds
  with exit 8, naming the address and the refused connection, and nothing
  runs or is written;
- --backend kafka without --bootstrap-servers is a usage error (exit 2);
- with the check skipped (--broker-check-s 0), each run meets the dead
  broker itself: an explore sweep (with --compare-model), a run over a
  folder and a perturb sweep stop after --infra-errors-max runs in a row
  ended infra, exit 8, write no failure file, and their summaries, JSON and
  JUnit reports carry the verdict `infra` and its cause (the address), never
  a failure, an error of the store or a differential.

  infra_test.py DURASIM SOURCE_DIR WORK_DIR
"""
import concurrent.futures
import json
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

DURASIM, SOURCE, WORK = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def durasim(*args):
    start = time.monotonic()
    result = subprocess.run([DURASIM, *map(str, args)], capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout, result.stderr, time.monotonic() - start


def dead_address():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
DEAD = dead_address()
FILE = SOURCE / "scenarios/fast/broker_down_then_up.yaml"
KAFKA = ["--backend", "kafka", "--bootstrap-servers", DEAD]

# The check at the start: within a few seconds (the default deadline is 3 s),
# exit 8, the address and the cause; nothing runs, nothing is written.
for command in (["run", FILE, "--report-json", WORK / "start.json"],
                ["explore", "--seeds", "5", "--failures-dir", WORK / "start_failures"],
                ["replay", "--seed", "1"]):
    code, out, err, wall = durasim(*command, *KAFKA)
    name = command[0]
    check(code == 8, f"{name} at the start: exit {code}\n{out}{err}")
    check(wall < 6, f"{name} at the start: took {wall:.1f} s")
    check(f"no broker at {DEAD} answered within 3000 ms" in err and "Connection refused" in err,
          f"{name} at the start: the message:\n{err}")
    check("nothing ran" in err, f"{name} at the start: does not say nothing ran:\n{err}")
check(not (WORK / "start.json").exists() and not (WORK / "start_failures").exists(), "the start check wrote something")

# kafka without bootstrap servers: a usage error.
code, out, err, wall = durasim("run", FILE, "--backend", "kafka")
check(code == 2 and "--bootstrap-servers" in err, f"kafka without servers: exit {code}\n{err}")

# With the check skipped every run meets the dead broker (a 10 s connect
# timeout each): three sweeps side by side.
NO_CHECK = [*KAFKA, "--broker-check-s", "0"]
sweeps = {
    "explore": ["explore", "--seeds", "30", "--jobs", "3", "--compare-model", "--infra-errors-max", "3",
                "--failures-dir", WORK / "explore_failures", "--report-json", WORK / "explore.json",
                "--junit", WORK / "explore.xml", *NO_CHECK],
    "run": ["run", SOURCE / "scenarios/fast", "--infra-errors-max", "1", "--report-json", WORK / "run.json",
            "--junit", WORK / "run.xml", *NO_CHECK],
    "perturb": ["run", FILE, "--perturb", "20", "--jobs", "2", "--infra-errors-max", "2",
                "--failures-dir", WORK / "perturb_failures", *NO_CHECK],
}
with concurrent.futures.ThreadPoolExecutor(len(sweeps)) as pool:
    results = dict(zip(sweeps, pool.map(lambda args: durasim(*args), sweeps.values())))

code, out, err, wall = results["explore"]
check(code == 8, f"explore: exit {code}\n{out}{err}")
check(wall < 60, f"explore: took {wall:.1f} s")
check("stopped: 3 infrastructure failures in a row (--infra-errors-max 3)" in out, f"explore: no stop line:\n{out}")
check("INFRA seed" in out and DEAD in out and "FAILED" not in out, f"explore: the summary:\n{out}")
check(not (WORK / "explore_failures").exists() or not any((WORK / "explore_failures").iterdir()),
      "explore: a failure file was written")
report = json.loads((WORK / "explore.json").read_text())
seeds = report["seeds"]
check(3 <= len(seeds) < 30, f"explore: {len(seeds)} seeds ran")
check(all(s["verdict"] == "infra" and DEAD in s["message"] and not s["invariants"] and not s["failure_file"]
          for s in seeds), f"explore: the seeds: {seeds}")
check(all("differ" not in s["message"] for s in seeds), f"explore: an infra seed compared with the model: {seeds}")
check(report["infra_stop"].startswith("3 infrastructure failures in a row"), f"explore: infra_stop {report['infra_stop']!r}")
suite = ET.parse(WORK / "explore.xml").getroot()
check(suite.get("failures") == "0" and suite.get("errors") == str(len(seeds)), f"explore junit: {suite.attrib}")
errors = [c.find("error") for c in suite.findall("testcase")]
check(all(e is not None and e.get("type") == "infra" and DEAD in e.get("message") for e in errors),
      "explore junit: the errors do not carry the cause")

code, out, err, wall = results["run"]
check(code == 8, f"run folder: exit {code}\n{out}{err}")
check("stopped: 1 infrastructure failures in a row" in out and "scenario files not run" in out,
      f"run folder: no stop line:\n{out}")
check("1 infra (not judged" in out, f"run folder: the summary line:\n{out}")
report = json.loads((WORK / "run.json").read_text())
check(len(report["runs"]) == 1 and report["runs"][0]["verdict"] == "infra" and DEAD in report["runs"][0]["error"],
      f"run folder: the JSON runs: {report['runs']}")
check(report["summary"]["infra"] == 1 and report["summary"]["not_ok"] == 0 and report["infra_stop"],
      f"run folder: the JSON summary: {report['summary']} {report['infra_stop']!r}")
suite = ET.parse(WORK / "run.xml").getroot()
error = suite.find("testcase/error")
check(suite.get("failures") == "0" and error is not None and DEAD in error.get("message"),
      f"run folder junit: {ET.tostring(suite, encoding='unicode')[:2000]}")

code, out, err, wall = results["perturb"]
check(code == 8, f"perturb: exit {code}\n{out}{err}")
check("INFRA" in out and DEAD in out and "perturb: stopped: 2 infrastructure failures in a row" in out,
      f"perturb: the output:\n{out}")
check(not (WORK / "perturb_failures").exists(), "perturb: a failure file was written")

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("all infra checks passed")
