#!/usr/bin/env python3
"""Strategy: the CLI's plumbing as a user meets it (issue 13 parts 3 and 9):
run --junit / --filter / --fail-fast, *.yml in folders, replay --write and
shrink by the failure-file rule, --version, defaults in --help, "did you
mean", range errors in words, negative seeds rejected, librdkafka's log lines
off the console unless --verbose.

  cli_test.py DURASIM SOURCE_DIR WORK_DIR
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

DURASIM, SOURCE, WORK = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def durasim(*args):
    result = subprocess.run([DURASIM, *map(str, args)], capture_output=True, text=True, timeout=600)
    return result.returncode, result.stdout, result.stderr


shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
negative = SOURCE / "scenarios/negative/await_before_flush.yaml"
passing = SOURCE / "scenarios/fast/ack_lost_persisted_write.yaml"
# A file that is not as expected: the kill file without its mutant.
suite = WORK / "suite"
suite.mkdir()
(suite / "a_not_as_expected.yaml").write_text(
    "\n".join(l for l in negative.read_text().splitlines() if not l.startswith("mutant:")) + "\n")
shutil.copy(passing, suite / "b_passes.yml")

# run --junit: one test case per file; a failure carries its reproduce command.
junit = WORK / "run.xml"
code, out, err = durasim("run", suite, "--junit", junit)
check(code == 1, f"run suite: exit {code}")
check("2 runs" in out, f"run suite: *.yml not walked:\n{out}")
cases = ET.parse(junit).getroot().findall("testcase")
check(len(cases) == 2, f"junit: {len(cases)} test cases")
failed = [c for c in cases if c.find("failure") is not None]
check(len(failed) == 1 and failed[0].get("name").endswith("a_not_as_expected.yaml"), "junit: the wrong failure")
if failed:
    check(f"reproduce: build/durasim run {suite / 'a_not_as_expected.yaml'}" in failed[0].find("failure").text,
          f"junit: no reproduce command: {failed[0].find('failure').text}")

# --fail-fast: nothing starts after the first miss.
code, out, err = durasim("run", suite, "--fail-fast", "--report-json", WORK / "ff.json")
check(code == 1 and "1 runs" in out and "1 of 2 scenario files not run" in out, f"fail-fast:\n{out}")
check(json.loads((WORK / "ff.json").read_text())["summary"]["runs"] == 1, "fail-fast: the JSON")

# --filter: a path substring.
code, out, err = durasim("run", SOURCE / "scenarios", "--filter", "rescale_", "--report-json", WORK / "f.json")
runs = json.loads((WORK / "f.json").read_text())["runs"]
check(code == 0 and len(runs) == 3 and all("rescale_" in r["path"] for r in runs), f"filter: {len(runs)} runs")
code, out, err = durasim("run", SOURCE / "scenarios", "--filter", "no-such-file")
check(code == 2 and "--filter" in err, f"filter without a match: exit {code} {err}")

# replay --write: a passing seed expects pass; a mutant's failure expects its violation.
code, out, err = durasim("replay", "--seed", 1, "--write", WORK / "seed1.yaml")
check(code == 0 and "verdict: pass" in (WORK / "seed1.yaml").read_text(), f"replay --write pass: exit {code}")
code, out, err = durasim("replay", "--seed", 1, "--mutant", "await-before-flush", "--write", WORK / "seed1_m.yaml")
text = (WORK / "seed1_m.yaml").read_text()
check(code == 1 and "mutant: await-before-flush" in text and "verdict: put-latency" in text,
      f"replay --write with a mutant: exit {code}\n{text[:800]}")
check("confirm the failure:" in text and "first violation:" in text, "replay --write: the header")
code, out, err = durasim("run", WORK / "seed1_m.yaml")
check(code == 0, f"the mutant's replay file does not reproduce: exit {code}")

# shrink: an unshrunk mutant failure keeps its expectation and shrinks.
code, out, err = durasim("shrink", WORK / "seed1_m.yaml", "--out", WORK / "seed1_m_shrunk.yaml")
shrunk = (WORK / "seed1_m_shrunk.yaml").read_text()
check(code == 0 and "verdict: put-latency" in shrunk, f"shrink: exit {code}\n{out}{err}")
check(shrunk.count("# first violation:") == 1 and "# shrunk by durasim shrink" in shrunk, "shrink: the header")
check(durasim("run", WORK / "seed1_m_shrunk.yaml")[0] == 0, "shrink: the shrunk file does not reproduce")
code, out, err = durasim("shrink", passing)
check(code == 2 and "nothing to shrink" in err, f"shrink of a passing file: exit {code} {err}")

# --version, defaults in --help.
code, out, err = durasim("--version")
check(code == 0 and re.match(r"durasim \d+\.\d+\.\d+", out), f"--version: {out!r}")
code, out, err = durasim("explore", "--help")
check(re.search(r"--seeds \S*=100\b", out) and "=failures" in out, f"explore --help without defaults:\n{out}")

# Did you mean; errors in words.
code, out, err = durasim("rnu", passing)
check(code == 2 and 'did you mean "run"' in err, f"mistyped command: {err}")
code, out, err = durasim("run", passing, "--mutant", "cache-befor-ack")
check(code == 2 and 'did you mean "cache-before-ack"' in err, f"mistyped mutant: {err}")

# Store designs: stores-list names at least two, the default marked; a
# mistyped --store is a usage error with "did you mean"; --store reaches the
# run (its reproduce line and a generated replay's file carry it).
code, out, err = durasim("stores-list")
designs = [line.split()[0] for line in out.splitlines() if line.strip()]
check(code == 0 and len(designs) >= 2 and "kafka-rewind" in designs and "(default)" in out, f"stores-list:\n{out}")
code, out, err = durasim("explore", "--seeds", 1, "--store", "kafka-rewirte")
check(code == 2 and 'did you mean "kafka-rewrite"' in err and "stores-list" in err, f"mistyped --store: {err}")
code, out, err = durasim("replay", "--seed", 2, "--store", "kafka-rewrite", "--write", WORK / "seed2_rewrite.yaml")
check(code == 0 and "store: kafka-rewrite" in (WORK / "seed2_rewrite.yaml").read_text(),
      f"replay --store --write: exit {code}\n{out}")

# fluss: run --store fluss leaves out a file it cannot run, naming why, and
# runs the rest; a mutant of the Kafka designs is refused on --store fluss.
code, out, err = durasim("run", "--store", "fluss", SOURCE / "scenarios/fast/tombstones_with_subtasks.yaml",
                         SOURCE / "scenarios/regressions/kafka_queued_action_reuse.yaml")
check(code == 0 and "not run on store design fluss: " in out and "holds no tombstones" in out and
      "1 runs, 1 as expected" in out, f"run --store fluss: exit {code}\n{out}{err}")
code, out, err = durasim("mutants", "--store", "fluss", "--mutant", "cache-before-ack", "--seeds", 1)
check(code == 2 and "hazard of store design kafka-rewind, kafka-rewrite, not of fluss (--store)" in err,
      f"mutants --store fluss --mutant cache-before-ack: exit {code}: {err}")

# keys: a row per key at each parallelism asked for (the keys after the list
# are keys, not parallelisms); a file gives its keys and parallelisms; a
# parallelism past the max is a usage error naming it.
code, out, err = durasim("keys", "--parallelism", "2,3", "a", "b", "c")
rows = out.splitlines()
check(code == 0 and len(rows) == 4 and "p=2" in rows[0] and "p=3" in rows[0] and rows[3].startswith('"c"'),
      f"keys --parallelism 2,3 a b c: exit {code}\n{out}{err}")
code, out, err = durasim("keys", SOURCE / "scenarios/fast/rescale_1_to_2.yaml")
check(code == 0 and "p=1" in out and "p=2" in out and '"a"' in out and "moves" in out,
      f"keys FILE: exit {code}\n{out}{err}")
code, out, err = durasim("keys", "--parallelism", 200, "a")
check(code == 2 and "exceeds the max parallelism 128" in err, f"keys --parallelism 200: exit {code}: {err}")

# compare-stores: a row per design of the shape asked for, the SVG written;
# an unknown shape is a usage error naming the shapes.
code, out, err = durasim("compare-stores", "--seeds", 3, "--shape", "crash-storm", "--svg", WORK / "cost.svg")
rows = [line for line in out.splitlines() if line.startswith("| crash-storm |")]
check(code == 0 and len(rows) == len(designs) and (WORK / "cost.svg").read_text().startswith("<svg"),
      f"compare-stores: exit {code}\n{out}{err}")
code, out, err = durasim("compare-stores", "--seeds", 1, "--shape", "crash_storm")
check(code == 2 and "crash-storm" in err, f"compare-stores with an unknown shape: exit {code}: {err}")
code, out, err = durasim("explore", "--seeds", 0)
check(code == 2 and "must be at least 1, got 0" in err and len(err) < 200, f"--seeds 0: {err!r}")
code, out, err = durasim("replay", "--seed", -1)
check(code == 2 and "cannot be negative" in err, f"--seed -1: exit {code} {err!r}")
code, out, err = durasim("explore", "--seed-start", "18446744073709551615", "--seeds", 2)
check(code == 2 and "past the last seed" in err, f"a window past 2^64: exit {code} {err!r}")

# librdkafka's log lines: not on a passing run's console, shown with --verbose.
broker_down = SOURCE / "scenarios/fast/broker_down_then_up.yaml"
code, out, err = durasim("run", broker_down, "--backend", "mock")
check(code == 0 and "rdkafka" not in err and "rdkafka" not in out, f"librdkafka lines on the console:\n{err[:800]}")
code, out, err = durasim("run", broker_down, "--backend", "mock", "--verbose")
check(code == 0 and "librdkafka:" in err, f"--verbose shows no librdkafka line: {err[:400]!r}")

# run --store fluss over every file: the files fluss cannot run are left out, each named on a line,
# in the JSON (left_out, counted in the summary) and as skipped JUnit test cases with the reason.
code, out, err = durasim("run", "--store", "fluss", SOURCE / "scenarios", "--report-json", WORK / "lo.json",
                         "--junit", WORK / "lo.xml")
printed = [l for l in out.splitlines() if l.startswith("not run on store design fluss: ")]
left = json.loads((WORK / "lo.json").read_text())
check(code == 0 and printed, f"run --store fluss: exit {code}, {len(printed)} left out\n{err}")
check(len(left["left_out"]) == len(printed) == left["summary"]["left_out"], "left out: the JSON does not match the lines")
check(all(f["store"] == "fluss" and f["why"] and f["path"].endswith(".yaml") for f in left["left_out"]),
      f"left out: entries {left['left_out'][:2]}")
suite_xml = ET.parse(WORK / "lo.xml").getroot()
skipped = [c for c in suite_xml.findall("testcase") if c.find("skipped") is not None]
check(len(skipped) == len(printed) == int(suite_xml.get("skipped")), f"junit: {len(skipped)} skipped")
check(int(suite_xml.get("tests")) == left["summary"]["runs"] + len(printed), "junit: tests counts runs and skips")
check(all("not run on store design fluss: " in c.find("skipped").get("message") for c in skipped), "junit: why")

# --require-pairs: a short sweep cannot hit every pair 100 times: exit 6, the
# thin pairs listed; the merged report of two shards holds the pair table and
# merge-reports requires the same; 0 requires nothing.
code, out, err = durasim("explore", "--seeds", 30, "--require-pairs", 100, "--shard", "0/2",
                         "--report-json", WORK / "p0.json", "--failures-dir", WORK / "pf")
check(code == 6 and "pairs below --require-pairs: " in out, f"explore --require-pairs: exit {code}\n{out}")
code, out, err = durasim("explore", "--seeds", 30, "--shard", "1/2", "--report-json", WORK / "p1.json",
                         "--failures-dir", WORK / "pf")
check(code == 0 and "feature pairs: " in out, f"explore pairs summary: exit {code}\n{out}")
pairs = json.loads((WORK / "p1.json").read_text())["pairs"]
check(len(pairs) > 1000 and all(p["first"] < p["second"] for p in pairs), f"explore pairs JSON: {len(pairs)} pairs")
code, out, err = durasim("merge-reports", "--out", WORK / "pm.json", WORK / "p0.json", WORK / "p1.json",
                         "--require-pairs", 100)
check(code == 6 and "pairs below --require-pairs 100" in out, f"merge-reports --require-pairs: exit {code}\n{out}")
merged = json.loads((WORK / "pm.json").read_text())["pairs"]
check(sum(p["seeds"] for p in merged) >= sum(p["seeds"] for p in pairs), "merge-reports: the pair table")
code, out, err = durasim("explore", "--seeds", 5, "--require-pairs", -1)
check(code == 2, f"explore --require-pairs -1: exit {code}")

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("cli: every check passed")
