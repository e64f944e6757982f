#!/usr/bin/env bash
# The replay cost of one long-pending action (issue 10, docs/benchmarks.md):
# key B's action is still running at the checkpoint (its first call fails
# and is retried), while N other keys' inputs complete and are pruned. The
# restore must rebuild from B's first record, so every subtask scans every
# record written after it. Prints, per parallelism P and N, the records each
# subtask's rebuild scanned (the trace's `restore ... scanned=`).
#   ci/bench/replay-cost.sh DURASIM [N...]
set -euo pipefail
durasim=$1
shift
counts=("${@:-10 100 1000}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| P | inputs completed after B | records in the log | scanned per subtask |\n|---|---|---|---|\n'
for p in 1 2 4; do
  for n in ${counts[@]}; do
    file="$work/replay_p${p}_n${n}.yaml"
    {
      printf 'name: replay_cost_p%s_n%s\nparallelism: %s\n' "$p" "$n" "$p"
      # B's first call fails and its retry is still in flight at the checkpoint;
      # the others' calls (async, side by side) and puts are done by then.
      printf 'suppliers:\n  - {name: llm, scale: 2, latency_ms: %s, fails: {nth: 1}}\n' "$((20 * n + 50))"
      printf 'actions:\n  - name: ask\n    on: input\n    on_error: {retry: {max: 1}}\n    steps:\n'
      printf '      - call: {supplier: llm, mode: async}\n      - output\n'
      printf 'inputs:\n  - {key: B, value: 1}\n'
      for ((i = 0; i < n; ++i)); do printf '  - {key: "A%s", value: %s}\n' "$i" "$i"; done
      printf 'attempts:\n  - steps:\n      - read: 1\n      - run_ms: 5\n      - read: all\n'
      printf '      - run_ms: %s\n      - checkpoint: cp1\n      - complete: cp1\n      - crash\n' "$((30 * n + 60))"
      printf '  - restore: cp1\n    steps:\n      - run\n'
    } >"$file"
    trace=$("$durasim" run "$file" --trace)
    grep -q ' pass ' <<<"$trace" || { echo "replay-cost: $file did not pass" >&2; exit 1; }
    scanned=$(grep -oE 'a2 restore .*scanned=[0-9]+' <<<"$trace" | grep -oE 'scanned=[0-9]+' | cut -d= -f2 | sort -u | paste -sd/)
    records=$(grep -cE 'a1 log\.append' <<<"$trace" || true)
    printf '| %s | %s | %s | %s |\n' "$p" "$n" "$records" "$scanned"
  done
done
