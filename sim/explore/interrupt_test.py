#!/usr/bin/env python3
"""Strategy: SIGINT or SIGTERM during a long explore (with a mutant, so that
seeds fail and failure files are written), mutants and run: the command stops
starting new runs, lets the running ones finish, writes every failure file and
its reports (the JSON parses and says interrupted), prints its summary to a
redirected stdout and exits 128 + the signal (130, 143).

  interrupt_test.py DURASIM WORK_DIR SCENARIOS_DIR
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

DURASIM, WORK, SCENARIOS = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def interrupted(name, args, sig, wait_for, expect_rc):
    """Starts `args`, waits until stdout shows `wait_for`, sends `sig`."""
    out_path = WORK / f"{name}.out"
    with open(out_path, "wb") as out:
        process = subprocess.Popen([DURASIM] + args, stdout=out, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.2)
            if re.search(wait_for, out_path.read_text(errors="replace")):
                break
        started = time.monotonic()
        process.send_signal(sig)
        _, stderr = process.communicate(timeout=120)
        stopped_s = time.monotonic() - started
    stdout = out_path.read_text(errors="replace")
    check(process.returncode == expect_rc,
          f"{name}: exit {process.returncode}, expected {expect_rc}\nstdout:\n{stdout[-2000:]}\nstderr:\n{stderr.decode()[-2000:]}")
    print(f"{name}: exit {process.returncode} {stopped_s:.2f} s after {signal.Signals(sig).name}")
    return stdout


def explore(sig, expect_rc):
    name = f"explore_{signal.Signals(sig).name}"
    folder = WORK / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    report, junit = folder / "report.json", folder / "junit.xml"
    # await-before-flush fails nearly every seed: many failure files.
    stdout = interrupted(name, ["explore", "--seeds", "1000000", "--jobs", "2", "--mutant", "await-before-flush",
                                "--failures-dir", str(folder / "failures"), "--report-json", str(report),
                                "--junit", str(junit), "--shrink-budget-s", "1"], sig, r"explore: \d+/\d+ seeds",
                         expect_rc)
    check("interrupted" in stdout and "verdicts:" in stdout, f"{name}: no summary on stdout:\n{stdout[-2000:]}")
    try:
        doc = json.loads(report.read_text())
    except (OSError, ValueError) as error:
        check(False, f"{name}: the JSON report does not parse: {error}")
        return
    check(doc.get("interrupted") is True, f"{name}: the JSON report is not marked interrupted")
    failed = [s for s in doc["seeds"] if s["verdict"] != "pass"]
    check(len(failed) > 0, f"{name}: no failing seed ran before the signal")
    check(len(doc["seeds"]) < 1000000, f"{name}: every seed ran")
    for seed in failed:
        path = seed["failure_file"]
        check(path and os.path.isfile(path), f"{name}: seed {seed['seed']}: failure file {path!r} missing")
    listed = re.findall(r"FAILED seed \d+: .* -> (\S+)", stdout)
    check(len(listed) == len(failed), f"{name}: {len(listed)} failures listed, {len(failed)} in the report")
    for path in listed:
        check(os.path.isfile(path), f"{name}: listed {path} was not written")
    check(junit.read_text().rstrip().endswith("</testsuite>"), f"{name}: the JUnit report is cut")
    # A written failure file reproduces (it expects the mutant's violation).
    if listed:
        rerun = subprocess.run([DURASIM, "run", listed[0]], capture_output=True)
        check(rerun.returncode == 0, f"{name}: durasim run {listed[0]} exited {rerun.returncode}")


def mutants():
    folder = WORK / "mutants_SIGINT"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    report = folder / "mutants.json"
    # The production sweep prints nothing until it ends: wait a fixed time.
    with open(folder / "out", "wb") as out:
        process = subprocess.Popen([DURASIM, "mutants", "--seeds", "1000000", "--jobs", "2", "--failures-dir",
                                    str(folder / "f"), "--report-json", str(report)], stdout=out,
                                   stderr=subprocess.PIPE)
        time.sleep(2)
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=120)
    stdout = (folder / "out").read_text()
    check(process.returncode == 130, f"mutants: exit {process.returncode}, expected 130:\n{stdout}")
    try:
        doc = json.loads(report.read_text())
        check(doc.get("interrupted") is True, "mutants: the JSON report is not marked interrupted")
    except (OSError, ValueError) as error:
        check(False, f"mutants: the JSON report does not parse: {error}")
    check("interrupted by SIGINT" in stdout, f"mutants: no interruption on stdout:\n{stdout}")


def run():
    folder = WORK / "run_SIGTERM"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    report = folder / "run.json"
    # Many copies of the scenario files: the signal lands while they run.
    files = sorted((SCENARIOS / "fast").glob("*.yaml"))
    args = ["run", "--report-json", str(report), "--junit", str(folder / "run.xml"), "--trace"]
    args += [str(f) for f in files] * 40
    stdout = interrupted("run_SIGTERM", args, signal.SIGTERM, r"trace of", 143)
    try:
        doc = json.loads(report.read_text())
        check(doc.get("interrupted") is True, "run: the JSON report is not marked interrupted")
        check(0 < doc["summary"]["runs"] < len(args), f"run: {doc['summary']['runs']} runs in the report")
    except (OSError, ValueError) as error:
        check(False, f"run: the JSON report does not parse: {error}")
    check("not run" in stdout, f"run: the files not run are not counted:\n{stdout[-1500:]}")


WORK.mkdir(parents=True, exist_ok=True)
explore(signal.SIGINT, 130)
explore(signal.SIGTERM, 143)
mutants()
run()
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("interrupts: every check passed")
