#!/usr/bin/env bash
# Behaviour unchanged, proven by identical traces: runs two durasim binaries
# (say, the build of an older commit and today's) over every scenario file
# (on the model and on librdkafka's mock cluster) and over explore seeds
# 1..SEEDS for the production code and every mutant both know, and compares
# per run: verdict, trace hash, violated invariants, outputs, supplier calls.
# Prints the first differences and exits 1 when there are any.
#   ci/compare-traces.sh [--text-hash] OLD_DURASIM NEW_DURASIM [SEEDS=2000] [JOBS=2]
# --text-hash: the old binary hashes the trace's text (trace format 1, before
# issue 15) and the new one its fields (format 2): the new binary runs with
# --text-hash and its trace_text_hash, FNV-1a over the rendered lines, is
# compared with the old trace_hash, so the traces are proven equal line for
# line. Only for an OLD of format 1: two format-2 builds are compared without it.
# Build the old binary from a clean checkout, e.g.
#   git worktree add ../old bbd5419 && cmake -S ../old -B ../old/build -G Ninja && cmake --build ../old/build --target durasim
set -euo pipefail
text_hash=()
if [[ ${1:-} == --text-hash ]]; then
  text_hash=(--text-hash)
  shift
fi
if (($# < 2)); then
  echo "usage: $0 [--text-hash] OLD_DURASIM NEW_DURASIM [SEEDS] [JOBS]" >&2
  exit 2
fi
old=$1 new=$2 seeds=${3:-2000} jobs=${4:-2}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The mutants both binaries know (a newer zoo may have more: those have no
# old behaviour to keep). A mutant the old binary knows and the new does not
# is a difference.
mapfile -t old_mutants < <("$old" mutants-list | grep -v '^ ')
mapfile -t new_mutants < <("$new" mutants-list | grep -v '^ ')
mutants=()
for mutant in "${old_mutants[@]}"; do
  if printf '%s\n' "${new_mutants[@]}" | grep -qxF "$mutant"; then
    mutants+=("$mutant")
  else
    echo "compare-traces: the new binary lost mutant $mutant" >&2
    exit 1
  fi
done

for side in old new; do
  bin=${!side}
  extra=()
  [[ $side == new ]] && extra=("${text_hash[@]}")
  # One file at a time: a file the old binary cannot read (a newer format)
  # or whose mutant it does not know is new, not a difference. A run that is
  # not as expected exits 1, which is fine here: the reports are compared.
  for backend in model mock; do
    mkdir -p "$work/$side-run-$backend"
    while IFS= read -r file; do
      report="$work/$side-run-$backend/$(echo "$file" | tr / _).json"
      "$bin" run "$file" --backend "$backend" "${extra[@]}" --report-json "$report" >/dev/null 2>&1 || true
    done < <(find scenarios -name '*.yaml' -not -path '*/malformed/*' | sort)
  done
  for mutant in production "${mutants[@]}"; do
    flags=()
    [[ $mutant != production ]] && flags=(--mutant "$mutant")
    "$bin" explore --seeds "$seeds" --jobs "$jobs" "${flags[@]}" "${extra[@]}" --shrink-budget-s 0.01 \
      --failures-dir "$work/$side-failures" --report-json "$work/$side-explore-$mutant.json" >/dev/null || true
  done
done

python3 - "$work" "${#text_hash[@]}" production "${mutants[@]}" <<'PY'
import collections, glob, json, sys
work, text_hash, names = sys.argv[1], sys.argv[2] != "0", sys.argv[3:]

def hash_of(row):  # the new side's text hash under --text-hash
    return (row.get("trace_text_hash") or row["trace_hash"]) if text_hash else row["trace_hash"]

def runs(folder, unknown_to_old):
    rows = {}
    for path in sorted(glob.glob(f"{folder}/*.json")):
        for run in json.load(open(path))["runs"]:
            if unknown_to_old(run):
                continue
            rows[run["path"]] = (run["verdict"], hash_of(run),
                                 sorted(v["invariant"] for v in run["violations"]), run["outputs"],
                                 run["supplier_calls"])
    return rows

def old_cannot_run(run):
    return run["verdict"] == "error" and "unknown mutant" in run.get("error", "")

def seeds(path):
    return {s["seed"]: (s["verdict"], hash_of(s), sorted(s["invariants"])) for s in json.load(open(path))["seeds"]}

differences, outcomes_differ, compared, added = [], [], 0, 0
pairs = [(f"run {b}", runs(f"{work}/old-run-{b}", old_cannot_run), runs(f"{work}/new-run-{b}", lambda run: False))
         for b in ("model", "mock")]
pairs += [(f"explore {n}", seeds(f"{work}/old-explore-{n}.json"), seeds(f"{work}/new-explore-{n}.json")) for n in names]
for what, old, new in pairs:
    for key in sorted(set(old) | set(new), key=str):
        if key not in old:  # a scenario file added since: nothing to keep
            added += 1
            continue
        compared += 1
        if old.get(key) != new.get(key):
            differences.append(f"{what} {key}: old {old.get(key)} new {new.get(key)}")
            without_hash = lambda row: row and (row[0],) + tuple(row[2:])
            if without_hash(old.get(key)) != without_hash(new.get(key)):
                outcomes_differ.append(f"{what} {key}")
for line in differences[:20]:
    print(line)
by_group = collections.Counter(" ".join(line.split(" ", 2)[:2]) for line in differences)
for group, count in sorted(by_group.items()):
    print(f"  {count:6d} differ: {group}")
print(f"compare-traces: {compared} runs compared, {len(differences)} differ ({added} new scenario runs not compared); "
      f"{len(outcomes_differ)} in more than the trace (verdict, invariants, outputs, calls){': ' if outcomes_differ else ''}"
      f"{', '.join(outcomes_differ[:20])}")
sys.exit(1 if differences else 0)
PY
