#!/usr/bin/env bash
# The standing long sweep (issue 32): explore many seeds across shards, one
# process per shard, and merge the shards' reports, so that rare false alarms
# and rare bugs are met. Not part of the test command; CI runs it on a
# schedule (.github/workflows/durasim.yml, job long-sweep).
#
#   ci/long-sweep.sh [SEEDS [SHARDS [SEED_START]]]
#
# SEEDS defaults to 1,000,000, SHARDS to the number of cores, SEED_START to 1.
# It sweeps the build/durasim that is there (building one only when there
# is none) and prints its version. Everything lands in build/long-sweep/:
# each shard's report and log, the failing scenarios (failures/), and
# merged.json. Exits with merge-reports' code (sim/exit_codes.h): 0 every
# seed passed and every coverage point fired; 1, 3, 4, 5 a failure; 6 a
# coverage point never fired; 7 an output not written; 8 infra; 1 also when
# a shard failed and the merge could not say so. SIGINT/SIGTERM stops the
# shards too.
set -euo pipefail
cd "$(dirname "$0")/.."

seeds=${1:-1000000}
shards=${2:-$(nproc)}
start=${3:-1}
for value in "$seeds" "$shards"; do
  if ! [[ $value =~ ^[1-9][0-9]*$ ]]; then
    echo "long-sweep: '$value' is not a positive whole number (usage: $0 [SEEDS [SHARDS [SEED_START]]])" >&2
    exit 2
  fi
done
if ! [[ $start =~ ^(0|[1-9][0-9]*)$ ]]; then
  echo "long-sweep: SEED_START '$start' is not a whole number" >&2
  exit 2
fi
[[ -x build/durasim ]] || bash ci/build.sh
echo "long-sweep: $(build/durasim --version)"

out=build/long-sweep
rm -rf "$out"
mkdir -p "$out"
echo "long-sweep: seeds $start..$((start + seeds - 1)) in $shards shards -> $out"
began=$(date +%s)
pids=()
stop_shards() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
}
trap 'stop_shards; exit 143' TERM
trap 'stop_shards; exit 130' INT
for ((shard = 0; shard < shards; ++shard)); do
  build/durasim explore --seeds "$seeds" --seed-start "$start" --shard "$shard/$shards" --jobs 1 \
    --failures-dir "$out/failures" --report-json "$out/shard-$shard.json" >"$out/shard-$shard.log" 2>&1 &
  pids+=($!)
done
status=0
for ((shard = 0; shard < shards; ++shard)); do
  if ! wait "${pids[$shard]}"; then
    status=1
    echo "long-sweep: shard $shard/$shards did not pass; its summary:" >&2
    grep -E "^(verdicts|violations|FAILED|INFRA|never fired)" "$out/shard-$shard.log" | head -20 >&2 || true
  fi
done
echo "long-sweep: the shards took $(($(date +%s) - began)) s"
merged=0
build/durasim merge-reports --require-coverage --out "$out/merged.json" "$out"/shard-*.json || merged=$?
echo "long-sweep: done in $(($(date +%s) - began)) s; exit $merged"
if ((merged == 0 && status != 0)); then exit 1; fi
exit "$merged"
