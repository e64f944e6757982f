#!/usr/bin/env bash
# The worst cases the limits allow (issue 16 part 2, docs/scenarios.md
# "Limits", docs/benchmarks.md "Worst case"): files at or just inside the
# limits, one per way a file can be costly, each run once with
# /usr/bin/time -v. Prints one row per shape: wall seconds and max RSS.
#   bench/worst_case.sh DURASIM [SHAPE...]
# Shapes, each just inside kWorkUnitsMax (their estimate, model/scenario_cost.h):
#   inputs     15,000 inputs, one day-long call each, 4 checkpoints: 0.96M units
#              (kInputsMax's 50,000 inputs are refused by the estimate: 64 units per input)
#   calls      one action of 99 calls (kActionStepsMax), 1 input, 48 attempts each
#              running it from the start: 1.0M units
#   retries    one action of 4 calls with retry max 99 (400 call results), fail_percent 90: 0.64M units
#   fanout     emits fanning out to 511 action runs per input, 39 inputs: 1.0M units
#   subtasks   64 subtasks (kParallelismMax), 1024 partitions (kPartitionsMax), 300 inputs, a
#              checkpoint, two compactions, a restore every subtask rebuilds: 0.95M units
set -euo pipefail
durasim=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

header() {  # name latency_ms
  printf 'name: worst_case_%s\nsuppliers:\n  - {name: llm, scale: 3, latency_ms: %s}\n' "$1" "$2"
}

shape_inputs() {
  header inputs 86400000
  printf 'actions:\n  - name: ask\n    on: input\n    steps:\n      - call: llm\n      - memory_add: m\n      - output\n'
  printf 'inputs:\n'
  for ((i = 0; i < 15000; ++i)); do printf '  - {key: k%s, value: %s}\n' "$((i % 5000))" "$i"; done
  printf 'attempts:\n  - steps:\n'
  for ((c = 1; c <= 4; ++c)); do printf '      - read: 3750\n      - run\n      - checkpoint: cp%s\n      - complete: cp%s\n' "$c" "$c"; done
}

shape_calls() {
  header calls 1
  printf 'actions:\n  - name: ask\n    on: input\n    steps:\n'
  for ((i = 0; i < 99; ++i)); do printf '      - call: llm\n'; done
  printf '      - output\ninputs:\n  - {key: a, value: 1}\nattempts:\n'
  for ((a = 1; a < 48; ++a)); do printf '  - steps:\n      - read: all\n      - run\n      - crash\n'; done
  printf '  - steps:\n      - read: all\n'
}

shape_retries() {
  printf 'name: worst_case_retries\nsuppliers:\n  - {name: llm, scale: 3, fail_percent: 90}\n'
  printf 'actions:\n  - name: ask\n    on: input\n    on_error: {retry: {max: 99}}\n    steps:\n'
  for ((i = 0; i < 4; ++i)); do printf '      - call: llm\n'; done
  printf '      - output\ninputs:\n'
  for ((i = 0; i < 1; ++i)); do printf '  - {key: k%s, value: %s}\n' "$i" "$i"; done
  printf 'attempts:\n  - steps:\n      - read: all\n'
}

shape_fanout() {
  # ask emits e1 twice; a_i on e_i emits e_{i+1} twice: 2 + 4 + ... runs.
  header fanout 1
  printf 'actions:\n  - name: a0\n    on: input\n    steps:\n      - emit: e1\n      - emit: e1\n'
  for ((i = 1; i < 8; ++i)); do
    printf '  - name: a%s\n    on: e%s\n    steps:\n      - emit: e%s\n      - emit: e%s\n' "$i" "$i" "$((i + 1))" "$((i + 1))"
  done
  printf '  - name: a8\n    on: e8\n    steps:\n      - call: llm\n      - output\n'
  printf 'inputs:\n'
  for ((i = 0; i < 39; ++i)); do printf '  - {key: k%s, value: %s}\n' "$i" "$i"; done
  printf 'attempts:\n  - steps:\n      - read: all\n'
}

shape_subtasks() {
  printf 'name: worst_case_subtasks\nparallelism: 64\nmax_parallelism: 32768\nlog: {partitions: 1024}\n'
  printf 'suppliers:\n  - {name: llm, scale: 3}\n'
  printf 'actions:\n  - name: ask\n    on: input\n    steps:\n      - call: llm\n      - output\n'
  printf 'inputs:\n'
  for ((i = 0; i < 300; ++i)); do printf '  - {key: k%s, value: %s}\n' "$i" "$i"; done
  printf 'attempts:\n  - steps:\n      - read: 150\n      - run\n      - checkpoint: cp1\n      - complete: cp1\n'
  printf '      - read: all\n      - run\n      - compact\n      - compact\n      - crash\n'
  printf '  - restore: cp1\n    steps:\n      - read: all\n'
}

printf '| shape | wall s | CPU s (user + sys) | max RSS MB | verdict |\n|---|---|---|---|---|\n'
shapes=("$@")
((${#shapes[@]})) || shapes=(inputs calls retries fanout subtasks)
for shape in "${shapes[@]}"; do
  file="$work/$shape.yaml"
  "shape_$shape" >"$file"
  /usr/bin/time -v "$durasim" run "$file" >"$work/out" 2>"$work/time" || true
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; print s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$work/time")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$work/time")
  verdict=$(grep -Eo '^[0-9]+ runs?, .*' "$work/out" | head -1 || true)
  [[ -z $verdict ]] && verdict=$(head -c 300 "$work/out" | tr '\n' ' ')
  printf '| %s | %s | %s | %s | %s |\n' "$shape" "$wall" "$cpu" "$rss" "$verdict"
  [[ -n ${KEEP:-} ]] && cp "$file" "$KEEP/"
done
