#!/usr/bin/env bash
# Throughput of two builds side by side (issue 15): the old and the new
# binaries run the same workloads alternately, ROUNDS times each, and the
# script prints the medians and the ratio new/old as a Markdown table.
# Alternating in one run keeps the machine's load the same for both.
#
#   bench/old_vs_new.sh OLD_DIR NEW_DIR [ROUNDS=5] [SEEDS=2000]
#
# OLD_DIR and NEW_DIR each hold `durasim` and `scenario_bench` (a build
# directory, or a copy of one). Besides each workload's rate, the table
# gives the CPU time (user + system) of one measurement, median: on a
# shared host it moves less than the wall clock, and the mock workload's
# cost is mostly its threads' wake-ups, which the CPU time counts. Workloads:
#   explore   durasim explore --seeds SEEDS --jobs 1 (the default mix; every
#             16th seed runs twice for determinism): seeds per second of
#             wall time on one core, simulated/wall as explore prints it,
#             peak RSS;
#   bench     scenario_bench on the seed regression, 5000 runs: runs/s;
#   mock      durasim explore --seeds 200 --jobs 2 --backend mock
#             --compare-model: seeds per second on two jobs (skipped with
#             DURASIM_BENCH_NO_MOCK=1).
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 OLD_DIR NEW_DIR [ROUNDS] [SEEDS]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-5} seeds=${4:-2000}
cd "$(dirname "$0")/.."
regression=scenarios/regressions/kafka_queued_action_reuse.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One measurement: appends "<value> <sim/wall> <rss MB> <CPU s>" to $work/<name>.
measure_explore() {  # dir name [extra args]
  local dir=$1 name=$2
  shift 2
  local out="$work/out" time="$work/time" n=$seeds
  [[ $* == *--backend* ]] && n=200
  # The wall time from bash's microsecond clock (bash 5), as integer
  # microseconds whatever the locale's decimal separator: time's %e has
  # 10 ms steps, 1.7% of a 0.6 s run, which quantised short runs' seeds/s.
  local start=${EPOCHREALTIME/[.,]/}
  /usr/bin/time -f '%M %U %S' -o "$time" "$dir/durasim" explore --seeds "$n" "$@" >"$out" 2>&1 || {
    echo "bench: $dir/durasim explore $* failed:" >&2
    tail -5 "$out" >&2
    exit 1
  }
  local wall rss user system
  wall=$(awk -v a="$start" -v b="${EPOCHREALTIME/[.,]/}" 'BEGIN { printf "%.6f", (b - a) / 1e6 }')
  read -r rss user system <"$time"
  local ratio
  ratio=$(sed -n 's/.* = \([0-9.]*\)x wall time.*/\1/p' "$out" | head -1)
  awk -v n="$n" -v w="$wall" -v r="${ratio:-0}" -v m="$rss" -v c="$user" -v k="$system" \
    'BEGIN { printf "%.1f %s %.0f %.2f\n", n / w, r, m / 1024, c + k }' >>"$work/$name"
}

measure_bench() {  # dir name
  local out="$work/out" time="$work/time" rss cpu
  /usr/bin/time -f '%M %U %S' -o "$time" "$1/scenario_bench" "$regression" --runs 5000 >"$out" 2>&1 || {
    echo "bench: $1/scenario_bench failed:" >&2
    tail -5 "$out" >&2
    exit 1
  }
  rss=$(awk '{ printf "%.0f", $1 / 1024 }' "$time")
  cpu=$(awk '{ printf "%.2f", $2 + $3 }' "$time")
  sed -n "s/.* = \\([0-9]*\\) runs\\/s; simulated [0-9.]* s = \\([0-9.]*\\)x wall.*/\\1 \\2 $rss $cpu/p" "$out" >>"$work/$2"
}

median() {  # file column
  sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for ((round = 1; round <= rounds; ++round)); do
  # Alternate which binary goes first, so neither always runs on a warmer machine.
  if ((round % 2)); then order=(old new); else order=(new old); fi
  for side in "${order[@]}"; do
    dir=${!side}
    measure_explore "$dir" "explore.$side" --jobs 1
    measure_bench "$dir" "bench.$side"
    if [[ ${DURASIM_BENCH_NO_MOCK:-0} != 1 ]]; then
      measure_explore "$dir" "mock.$side" --jobs 2 --backend mock --compare-model
    fi
  done
  echo "bench: round $round of $rounds done (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done

echo "| workload | old | new | new/old | old sim/wall | new sim/wall | old peak MB | new peak MB | old CPU s | new CPU s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row() {  # name label
  local o n
  o=$(median "$work/$1.old" 1)
  n=$(median "$work/$1.new" 1)
  printf '| %s | %s | %s | %.2fx | %s | %s | %s | %s | %s | %s |\n' "$2" "$o" "$n" \
    "$(awk -v a="$o" -v b="$n" 'BEGIN { print b / a }')" "$(median "$work/$1.old" 2)x" "$(median "$work/$1.new" 2)x" \
    "$(median "$work/$1.old" 3)" "$(median "$work/$1.new" 3)" "$(median "$work/$1.old" 4)" "$(median "$work/$1.new" 4)"
}
row explore "explore --seeds $seeds --jobs 1: seeds/s (one core)"
row bench "scenario_bench, seed regression: runs/s"
[[ ${DURASIM_BENCH_NO_MOCK:-0} == 1 ]] || row mock "explore --seeds 200 --jobs 2 --backend mock --compare-model: seeds/s"
echo
echo "rounds: $rounds, medians; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
