#!/usr/bin/env python3
# Strategy: `durasim inspect` on topics a scenario run wrote to a real Apache
# Kafka broker (DURASIM_KAFKA_BOOTSTRAP, set by ci/kafka/with-broker.sh; exit
# 77, skipped, without it). The seed regression runs twice with
# `run --keep-topic`: with the production store, cp2's marker starts at the
# unfinished input's first record and nothing of it lies below; with the
# legacy-end-offset-marker mutant (the #1158 bug), cp2's marker lies past the
# result, and the same inspection lists the saved result below the marker,
# not read: the bug, seen on the broker. (The corrupt-record topic:
# sim/cli/inspect_command_test.cc, InspectRealBrokerTest.) A third run under
# an existing kept topic's name fails before writing anything.
#   inspect_cli_test.py DURASIM SOURCE_DIR
import os
import re
import subprocess
import sys
import time

durasim, source = sys.argv[1], sys.argv[2]
servers = os.environ.get("DURASIM_KAFKA_BOOTSTRAP", "")
if not servers:
    print("DURASIM_KAFKA_BOOTSTRAP is not set: no real Kafka broker (run under ci/kafka/with-broker.sh)")
    sys.exit(77)
failures = []


def check(what, ok, output):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}\n{output}")


def run(args):
    done = subprocess.run([durasim] + args, capture_output=True, text=True, cwd=source, timeout=300)
    return done.returncode, done.stdout + done.stderr


def kept_run(scenario, topic, extra=()):
    # A broker that has just started may not have its group coordinator
    # yet (the topic identity lives in a group): wait for it, a few times.
    for tries in range(5):
        code, out = run(["run", scenario, "--backend", "kafka", "--bootstrap-servers", servers, "--keep-topic",
                         f"{topic}-{tries}", *extra])
        if "NOT_COORDINATOR" not in out and "COORDINATOR_NOT_AVAILABLE" not in out:
            break
        time.sleep(2)
    topic = f"{topic}-{tries}"
    check(f"run {scenario} --keep-topic exits 0", code == 0, out)
    check(f"run {scenario} names the kept topic", f"kept topic {topic} on {servers}" in out, out)
    markers = dict(re.findall(r"^checkpoint (\S+) marker: (\{.*\})$", out, re.M))
    check(f"run {scenario} prints cp1's and cp2's markers", set(markers) >= {"cp1", "cp2"}, out)
    return topic, markers


stamp = f"{os.getpid()}-{time.time_ns()}"

fixed = f"durasim-inspect-fixed-{stamp}"
fixed, markers = kept_run("scenarios/regressions/kafka_queued_action_reuse.yaml", fixed)
code, out = run(["inspect", "--bootstrap-servers", servers, "--topic", fixed])
check("inspect of the fixed run's topic exits 0", code == 0, out)
check("the result record is decoded", "call done: call 0 llm SUCCEEDED 70" in out, out)
check("the completion record is decoded", "completed: output 70" in out, out)
check("no record is undecodable", ", 0 undecodable" in out, out)
if "cp2" in markers:
    code, out = run(["inspect", "--bootstrap-servers", servers, "--topic", fixed, "--marker", markers["cp2"]])
    check("inspect --marker cp2 exits 0", code == 0, out)
    check("cp2's marker (fixed) starts at the saved result", "reads partition 0 from offset 2" in out, out)
    check("below the fixed marker only the superseded pending record",
          re.search(r"offset 1  key=\"a\" seq=1  call pending: call 0 llm PENDING; a later record of it, at partition 0 "
                    r"offset \d+, is read", out) is not None, out)
    check("the rebuild accepts cp2's marker and caches a's state", "accepted: scanned" in out and
          'input key="a" seq=1: unfinished' in out, out)

legacy = f"durasim-inspect-legacy-{stamp}"
legacy, markers = kept_run("scenarios/negative/legacy_end_offset_marker_once.yaml", legacy)
if "cp2" in markers:
    code, out = run(["inspect", "--bootstrap-servers", servers, "--topic", legacy, "--marker", markers["cp2"]])
    check("inspect --marker cp2 (legacy) exits 0", code == 0, out)
    check("the legacy marker starts past the saved result", "reads partition 0 from offset 3" in out, out)
    check("the saved result lies below it, not read",
          re.search(r"below the marker, NOT read: 1 state of unfinished inputs", out) is not None and
          re.search(r"offset 2  key=\"a\" seq=1  call done: call 0 llm SUCCEEDED 70; a later record", out) is not None,
          out)

code, out = run(["inspect", "--bootstrap-servers", servers, "--topic", fixed, "--marker", "{not json"])
check("a bad marker is a usage error (2)", code == 2 and "--marker" in out, out)

# A kept topic's name must be new: a second run under it would write into,
# and restore from, the first run's records. It fails before writing.
code, out = run(["run", "scenarios/regressions/kafka_queued_action_reuse.yaml", "--backend", "kafka",
                 "--bootstrap-servers", servers, "--keep-topic", fixed])
check("a run into an existing --keep-topic fails naming it",
      code != 0 and f"topic '{fixed}' already exists at {servers}" in out, out)

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("inspect on a real broker: every check passed")
