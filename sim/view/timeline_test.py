#!/usr/bin/env python3
"""Strategy: the timeline and the decoded log as a person meets them (issue 14
parts 1, 2, 5). `run --timeline` on the seed regression under
legacy-end-offset-marker draws well-formed SVG holding the picture of #1158:
the saved result record, the second checkpoint's marker line to its right,
the repeated supplier call linked to that record, the violation in words; the
same run draws the same bytes; drawing changes neither trace nor verdict; the
.html page is self-contained (the SVG inline, no script, nothing fetched);
`--dump-log` decodes every partition after each attempt; explore and mutants
write a timeline beside every failure file.

  timeline_test.py DURASIM SOURCE_DIR WORK_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

DURASIM, SOURCE, WORK = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def durasim(*args):
    result = subprocess.run([DURASIM, *map(str, args)], capture_output=True, text=True, timeout=600)
    return result.returncode, result.stdout, result.stderr


def by_id(root):
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def classes(element):
    return (element.get("class") or "").split()


shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
legacy = SOURCE / "scenarios/negative/legacy_end_offset_marker_once.yaml"

# The picture of #1158.
svg = WORK / "legacy.svg"
code, out, err = durasim("run", legacy, "--timeline", svg, "--dump-log", "--report-json", WORK / "with.json")
check(code == 0, f"run --timeline: exit {code}\n{out}{err}")
root = ET.parse(svg).getroot()  # well-formed, or this raises
check(root.tag == SVG + "svg", f"the root is {root.tag}")
ids = by_id(root)
record = ids.get("record-p0-2")
marker = ids.get("marker-cp2-p0")
check(record is not None and "result" in classes(record), "no result record at p0@2")
check(record is not None and "saved-not-reused" in classes(record), "the saved result is not marked as not reused")
check(marker is not None and "marker" in classes(marker), "no marker line of cp2 on partition 0")
if record is not None and marker is not None:
    check(int(marker.get("x1")) >= int(record.get("x")) + int(record.get("width")),
          f"cp2's marker (x={marker.get('x1')}) is not right of the result record (x={record.get('x')})")
repeated = [e for e in root.iter(SVG + "circle") if "repeated" in classes(e)]
check(len(repeated) == 1, f"{len(repeated)} repeated calls drawn, expected the one")
lanes = [e for e in root.iter(SVG + "rect") if "lane" in classes(e)]
check(len(lanes) == 3, f"{len(lanes)} attempt lanes, expected 3")
if repeated and lanes:
    # The second call is in the third attempt's lane.
    third = ids.get("lane-a3-s0")
    check(third is not None and int(third.get("x")) <= int(repeated[0].get("cx")) <= int(third.get("x")) + int(third.get("width")),
          "the repeated call is not in attempt 3's lane")
link = ids.get("link-1")
check(link is not None and link.tag == SVG + "path", "no link from the repeated call to the saved record")
if link is not None and repeated and record is not None:
    d = link.get("d").replace("M", "").replace("C", "").split()
    start, end = d[0].split(","), d[-1].split(",")
    check(start[0] == repeated[0].get("cx"), "the link does not start at the repeated call")
    check(int(end[0]) == int(record.get("x")) + int(record.get("width")) // 2, "the link does not end at the record")
violation = ids.get("violation-1")
check(violation is not None and "once: supplier llm ran again" in (violation.text or ""),
      f"the violation is not in words: {violation.text if violation is not None else None}")
texts = " | ".join(t.text or "" for t in root.iter(SVG + "text"))
for words in ["attempt 3 restores cp2: reads 3..3 (0 records)", "cp2 marker @3", "the call ran again"]:
    check(words in texts, f"no text {words!r}")

# Same run, same bytes; drawing changes neither trace nor verdict.
again = WORK / "again.svg"
code, out2, err = durasim("run", legacy, "--timeline", again, "--report-json", WORK / "again.json")
check(svg.read_bytes() == again.read_bytes(), "the same run drew different bytes")
code, out3, err = durasim("run", legacy, "--report-json", WORK / "without.json")
with_run = json.loads((WORK / "with.json").read_text())["runs"][0]
without = json.loads((WORK / "without.json").read_text())["runs"][0]
check(with_run["trace_hash"] == without["trace_hash"], "the timeline changed the trace")
check(with_run["verdict"] == without["verdict"] == "violation", "the timeline changed the verdict")

# The decoded log: every partition after each attempt.
for words in ["log after attempt 1 (crashed):", "log after attempt 3 (finished):", "partition 0: 7 records, offsets 0..6",
              "result     a_1_", "calls [#0 llm SUCCEEDED result=70]", "emits [output 70]; completed",
              "action=ask_llm: no calls yet"]:
    check(words in out, f"--dump-log lacks {words!r}:\n{out}")

# The page: the SVG inline, nothing to fetch, no script.
html = WORK / "legacy.html"
code, out, err = durasim("run", legacy, "--timeline", html)
page = html.read_text()
check(code == 0 and page.startswith("<!DOCTYPE html>"), "no HTML page")
ET.fromstring(page[page.index("<html"):])  # well-formed too
check("<script" not in page and "src=" not in page and "href=" not in page and "@import" not in page,
      "the page fetches or runs something")
check(svg.read_text() in page, "the page does not hold the SVG inline")

# Several files: a usage error, in words.
code, out, err = durasim("run", legacy, SOURCE / "scenarios/fast/ack_lost_persisted_write.yaml", "--timeline", WORK / "x.svg")
check(code == 2 and "one scenario file" in err, f"--timeline with two files: exit {code} {err}")

# explore and mutants draw one beside every failure file.
failures_dir = WORK / "explore_failures"
code, out, err = durasim("explore", "--seeds", 1, "--seed-start", 118, "--jobs", 1, "--mutant", "legacy-end-offset-marker",
                         "--failures-dir", failures_dir, "--shrink-budget-s", 5)
written = sorted(failures_dir.glob("*.yaml"))
check(code == 1 and len(written) == 1, f"explore seed 118: exit {code}, {len(written)} failure files\n{out}{err}")
for yaml in written:
    check(yaml.with_suffix(".svg").exists(), f"no timeline beside {yaml.name}")
    if yaml.with_suffix(".svg").exists():
        ET.parse(yaml.with_suffix(".svg"))
mutants_dir = WORK / "mutants_failures"
code, out, err = durasim("mutants", "--mutant", "legacy-end-offset-marker", "--seeds", 300, "--jobs", 2,
                         "--seed-start", 118, "--failures-dir", mutants_dir, "--shrink-budget-s", 5)
written = sorted(mutants_dir.glob("*.yaml"))
check(len(written) == 1, f"mutants: {len(written)} failure files\n{out}{err}")
for yaml in written:
    check(yaml.with_suffix(".svg").exists(), f"no timeline beside {yaml.name}")

# The recorder only watches: a key whose text holds " subtask=" (read off
# trace lines) neither fails the run nor changes its verdict.
legacy = (SOURCE / "scenarios/negative/legacy_end_offset_marker_once.yaml").read_text()
tricky = WORK / "key_with_subtask_text.yaml"
tricky.write_text(legacy.replace("key: a,", 'key: "a subtask=z",', 1))
check("subtask=z" in tricky.read_text(), "the legacy file no longer has `key: a,` to replace")
code, out, err = durasim("run", tricky, "--timeline", WORK / "tricky.svg", "--dump-log")
check(code == 0 and "1 as expected" in out, f"a key holding ' subtask=' broke the timeline: {code}\n{out[-800:]}{err}")
code, out, err = durasim("run", tricky, "--timeline", WORK / "tricky.png")
check(code == 2 and "--timeline writes SVG" in err, f"--timeline x.png: {code} {err}")

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("timeline: all checks passed")
