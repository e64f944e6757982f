#!/usr/bin/env bash
# Behaviour unchanged, proven by identical traces: runs two durasim binaries
# (say, the build of an older commit and today's) over every scenario file
# (on the model and on librdkafka's mock cluster) and over explore seeds
# 1..SEEDS for the production code and every mutant of the zoo, and compares
# per run: verdict, trace hash, violated invariants, outputs, supplier calls.
# Prints the first differences and exits 1 when there are any.
#   ci/compare-traces.sh OLD_DURASIM NEW_DURASIM [SEEDS=2000] [JOBS=2]
# Build the old binary from a clean checkout, e.g.
#   git worktree add ../old bbd5419 && cmake -S ../old -B ../old/build -G Ninja && cmake --build ../old/build --target durasim
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 OLD_DURASIM NEW_DURASIM [SEEDS] [JOBS]" >&2
  exit 2
fi
old=$1 new=$2 seeds=${3:-2000} jobs=${4:-2}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The mutant names, from the new binary (both must know the same zoo).
mapfile -t mutants < <("$new" mutants-list | grep -v '^ ')
mapfile -t old_mutants < <("$old" mutants-list | grep -v '^ ')
if [[ "${mutants[*]}" != "${old_mutants[*]}" ]]; then
  echo "compare-traces: the binaries know different mutants: old [${old_mutants[*]}] new [${mutants[*]}]" >&2
  exit 1
fi

for side in old new; do
  bin=${!side}
  # Exit codes are compared through the reports: a mismatch is not an error here.
  "$bin" run scenarios/ --report-json "$work/$side-run-model.json" >/dev/null || true
  "$bin" run scenarios/ --backend mock --report-json "$work/$side-run-mock.json" >/dev/null 2>&1 || true
  for mutant in production "${mutants[@]}"; do
    flags=()
    [[ $mutant != production ]] && flags=(--mutant "$mutant")
    "$bin" explore --seeds "$seeds" --jobs "$jobs" "${flags[@]}" --shrink-budget-s 0.01 \
      --failures-dir "$work/$side-failures" --report-json "$work/$side-explore-$mutant.json" >/dev/null || true
  done
done

python3 - "$work" production "${mutants[@]}" <<'PY'
import json, sys
work, names = sys.argv[1], sys.argv[2:]

def runs(path):
    rows = {}
    for run in json.load(open(path))["runs"]:
        rows[run["path"]] = (run["verdict"], run["trace_hash"], sorted(v["invariant"] for v in run["violations"]),
                             run["outputs"], run["supplier_calls"])
    return rows

def seeds(path):
    return {s["seed"]: (s["verdict"], s["trace_hash"], sorted(s["invariants"])) for s in json.load(open(path))["seeds"]}

differences, compared = [], 0
pairs = [(f"run {b}", runs(f"{work}/old-run-{b}.json"), runs(f"{work}/new-run-{b}.json")) for b in ("model", "mock")]
pairs += [(f"explore {n}", seeds(f"{work}/old-explore-{n}.json"), seeds(f"{work}/new-explore-{n}.json")) for n in names]
for what, old, new in pairs:
    for key in sorted(set(old) | set(new), key=str):
        compared += 1
        if old.get(key) != new.get(key):
            differences.append(f"{what} {key}: old {old.get(key)} new {new.get(key)}")
for line in differences[:20]:
    print(line)
print(f"compare-traces: {compared} runs compared, {len(differences)} differ")
sys.exit(1 if differences else 0)
PY
