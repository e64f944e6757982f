#!/usr/bin/env bash
# Instructions per seed and per run of two builds side by side (issue 31):
# what bench/old_vs_new.sh measures in wall time, counted by callgrind
# instead. A count does not move with the host's load or clock, which on
# this machine class moved one binary's wall figures by a third between
# runs minutes apart (docs/benchmarks.md, "Issue 31, session 34"); the
# wall figures stay the issue's measure, this is their nearly noise-free twin.
#
#   bench/instructions.sh OLD_DIR NEW_DIR [SEEDS=300] [RUNS=1000]
#
# OLD_DIR and NEW_DIR each hold `durasim` and `scenario_bench`. Workloads:
#   explore   durasim explore --seeds SEEDS --jobs 1: instructions per seed
#             (the whole process, startup and the end's tables included);
#   bench     scenario_bench on the seed regression, RUNS runs:
#             instructions per run (the whole process).
# Needs valgrind (apt-get install valgrind). Each workload runs once per
# build: two counts of one binary on one input differ by a few thousand
# instructions in all (3 seeds twice: 2,817 apart; 5 seeds twice: 535),
# and two builds of one commit by about 1e-5 a seed and 1e-4 a run
# (docs/benchmarks.md), far
# below any change worth measuring. Relative directories are the caller's.
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 OLD_DIR NEW_DIR [SEEDS] [RUNS]" >&2
  exit 2
fi
seeds=${3:-300} runs=${4:-1000}
for value in "$seeds" "$runs"; do
  if ! [[ $value =~ ^[1-9][0-9]*$ ]]; then
    echo "instructions: '$value' is not a positive whole number (usage: $0 OLD_DIR NEW_DIR [SEEDS] [RUNS])" >&2
    exit 2
  fi
done
# The directories as the caller named them, before the cd below.
for side in 1 2; do
  dir=${!side}
  for program in durasim scenario_bench; do
    if [[ ! -f $dir/$program || ! -x $dir/$program ]]; then
      echo "instructions: $dir/$program is not an executable (give build directories, or copies of them)" >&2
      exit 2
    fi
  done
done
old=$(CDPATH='' cd -- "$1" && pwd)
new=$(CDPATH='' cd -- "$2" && pwd)
command -v valgrind >/dev/null || {
  echo "instructions: valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
}
cd "$(dirname "$0")/.."
regression=scenarios/regressions/kafka_queued_action_reuse.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The total instruction count callgrind gives for one command.
count() {  # command...
  local out="$work/callgrind.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >"$work/stdout" 2>"$work/stderr" || {
    echo "instructions: $* failed:" >&2
    tail -5 "$work/stderr" >&2
    exit 1
  }
  local total
  total=$(sed -n 's/^summary: //p' "$out")
  [[ $total =~ ^[0-9]+$ ]] || {
    echo "instructions: no instruction total in callgrind's output for $*" >&2
    exit 1
  }
  echo "$total"
}

declare -A per
for side in old new; do
  dir=${!side}
  per[explore.$side]=$(count "$dir/durasim" explore --seeds "$seeds" --jobs 1)
  per[bench.$side]=$(count "$dir/scenario_bench" "$regression" --runs "$runs")
  echo "instructions: $side done" >&2
done

echo "| workload | old | new | new/old |"
echo "|---|---:|---:|---:|"
row() {  # name label divisor
  awk -v o="${per[$1.old]}" -v n="${per[$1.new]}" -v d="$3" -v label="$2" \
    'BEGIN { printf "| %s | %.0f | %.0f | %.3fx |\n", label, o / d, n / d, n / o }'
}
row explore "explore --seeds $seeds --jobs 1: instructions per seed" "$seeds"
row bench "scenario_bench, seed regression, $runs runs: instructions per run" "$runs"
