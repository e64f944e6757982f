#!/usr/bin/env bash
# The cost of one action's durable calls (issue 16 part 2): one input whose
# action makes N sync calls in a row, then outputs. Each call writes a
# pending and a result put of the action's state, and a state record holds
# every call so far, so the bytes on the log grow as N^2 (the store's
# format); the harness's own bookkeeping must not add a second N^2.
# Prints one row per N: wall seconds and max RSS (/usr/bin/time -v).
#   bench/calls_per_action.sh DURASIM [N...]
set -euo pipefail
durasim=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| calls in one action | wall s | max RSS MB |\n|---|---|---|\n'
counts=("$@")
((${#counts[@]})) || counts=(100 250 1000)
for n in "${counts[@]}"; do
  file="$work/calls_$n.yaml"
  {
    printf 'name: calls_per_action_%s\nsuppliers:\n  - {name: llm, scale: 1}\nactions:\n  - name: ask\n' "$n"
    printf '    on: input\n    steps:\n'
    for ((i = 0; i < n; ++i)); do printf '      - call: llm\n'; done
    printf '      - output\ninputs:\n  - {key: a, value: 7}\nattempts:\n  - steps:\n      - read: all\n'
  } >"$file"
  /usr/bin/time -v "$durasim" run "$file" >"$work/out" 2>"$work/time" || true
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; print s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$work/time")
  printf '| %s | %s | %s |\n' "$n" "$wall" "$rss"
done
