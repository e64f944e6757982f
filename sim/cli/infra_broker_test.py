#!/usr/bin/env python3
"""Strategy: the broker fails in the middle of an explore sweep on a real
Kafka broker (ci/kafka/with-broker.sh gives DURASIM_KAFKA_BOOTSTRAP and the
broker's pid, DURASIM_KAFKA_PID). With --stop (the ctest) the broker's JVM
is frozen with SIGSTOP, so it stops answering, and thawed afterwards so that
later tests find it; with --kill (a probe, docs/backends.md) it is killed.
Either way the sweep must stop soon after (the issue measured 680 s and 122
seeds marked `error` before), exit 8, mark the seeds it met the failure in
`infra`, write none of them as a failure file, and judge the seeds before it
as usual (they pass). A frozen broker, once thawed, must serve a run again.

  infra_broker_test.py DURASIM WORK_DIR --stop|--kill
Exits 77 (skipped) without a broker.
"""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

DURASIM, WORK, MODE = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
BOOTSTRAP, PID = os.environ.get("DURASIM_KAFKA_BOOTSTRAP"), os.environ.get("DURASIM_KAFKA_PID")
if not BOOTSTRAP or not PID:
    print("no broker (run under ci/kafka/with-broker.sh): skipped")
    sys.exit(77)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
report, junit, failed_dir = WORK / "explore.json", WORK / "explore.xml", WORK / "failures"
command = [DURASIM, "explore", "--seeds", "200", "--jobs", "2", "--backend", "kafka", "--bootstrap-servers", BOOTSTRAP,
           "--failures-dir", failed_dir, "--report-json", report, "--junit", junit]
start = time.monotonic()
sweep = subprocess.Popen(list(map(str, command)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(8)
failed_at = time.monotonic()
os.kill(int(PID), signal.SIGSTOP if MODE == "--stop" else signal.SIGKILL)
try:
    out, err = sweep.communicate(timeout=300)
except subprocess.TimeoutExpired:
    # A hang is the finding: show where every thread of the sweep waits
    # (gdb, when installed), then stop it and show what it printed.
    if shutil.which("gdb"):
        stacks = subprocess.run(["gdb", "-p", str(sweep.pid), "-batch", "-ex", "thread apply all bt"],
                                capture_output=True, text=True, timeout=120)
        print("the sweep hangs; its threads:\n" + stacks.stdout[-20000:])
    sweep.kill()
    out, err = sweep.communicate()
    print(f"stdout:\n{out[-3000:]}\nstderr:\n{err[-3000:]}")
    raise
finally:
    if MODE == "--stop":
        os.kill(int(PID), signal.SIGCONT)
done = time.monotonic()
after_s = done - failed_at
print(f"broker {'frozen' if MODE == '--stop' else 'killed'} {failed_at - start:.1f} s into the sweep; the sweep "
      f"exited {sweep.returncode} {after_s:.1f} s later")
print(out[-3000:])
check(sweep.returncode == 8, f"exit {sweep.returncode}\n{err[-3000:]}")
check(after_s < 60, f"the sweep took {after_s:.1f} s after the broker failed")
seeds = json.loads(report.read_text())["seeds"]
infra = [s for s in seeds if s["verdict"] == "infra"]
judged = [s for s in seeds if s["verdict"] != "infra"]
print(f"{len(seeds)} seeds: {len(judged)} judged, {len(infra)} infra")
check(3 <= len(infra) <= 6, f"{len(infra)} infra seeds")
check(all(BOOTSTRAP in s["message"] and not s["failure_file"] for s in infra), f"infra seeds: {infra}")
check(all(s["verdict"] == "pass" for s in judged), f"a judged seed failed: {[s for s in judged if s['verdict'] != 'pass']}")
check(not failed_dir.exists() or not any(failed_dir.iterdir()), "a failure file was written")
check("stopped: 3 infrastructure failures in a row" in out, "no stop line")
check(junit.read_text().count('<error type="infra"') == len(infra), "the JUnit errors")
if MODE == "--stop":
    # The tests after this one use the thawed broker: it must serve a whole run
    # again (ci/kafka/server.properties.in says why it is not fenced on thaw).
    probe = [DURASIM, "explore", "--seeds", "1", "--jobs", "1", "--backend", "kafka", "--bootstrap-servers",
             BOOTSTRAP, "--failures-dir", WORK / "probe-failures"]
    served = subprocess.run(list(map(str, probe)), capture_output=True, text=True, timeout=120)
    check(served.returncode == 0, f"a run on the thawed broker exited {served.returncode}\n{served.stdout[-2000:]}")
if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("the sweep stopped on the failed broker and blamed nobody")
