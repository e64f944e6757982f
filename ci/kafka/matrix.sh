#!/usr/bin/env bash
# matrix.sh [VERSION...]: the real-broker tests on every Apache Kafka version
# of ci/kafka/versions (or the ones given), each on a fresh broker of its own.
# Per version it runs, under with-broker.sh with KAFKA_VERSION set:
#   1. every real-broker ctest (`ctest -L kafka`: the store, the differential
#      over every scenario file on each design, the generated differential,
#      inspect, infra);
#   2. the seed regression (#1158, scenarios/regressions/kafka_queued_action_reuse.yaml)
#      on each design: 1 supplier call with the production store, 2 with the
#      mutant legacy-end-offset-marker;
#   3. put_latency_bench on the broker alone: put p50 and rebuild records/s.
# Prints the table of docs/backends.md "Broker versions" and writes it, with
# each version's logs, to build/kafka-matrix/. Exits 1 if any version failed.
# Needs the RelWithDebInfo build (ci/build.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build
out=$build/kafka-matrix

# Inside: one version's steps, as the command of with-broker.sh.
if [[ ${1:-} == --inside ]]; then
  dir=$2
  bootstrap=$DURASIM_KAFKA_BOOTSTRAP
  tests=FAILED
  if (cd "$build" && ctest --output-on-failure --no-tests=error -L kafka >"$dir/ctest.log" 2>&1); then
    tests=passed
  fi
  summary=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$dir/ctest.log" | tail -n 1 || true)
  [[ -n $summary ]] || summary="no ctest summary (see $dir/ctest.log)"

  seed=$repo/scenarios/regressions/kafka_queued_action_reuse.yaml
  calls() {  # supplier calls of one run of the seed file, from its JSON report
    local json=$dir/seed-$1-${2:-production}.json
    "$build/durasim" run --backend kafka --bootstrap-servers "$bootstrap" --store "$1" \
      ${2:+--mutant "$2"} --report-json "$json" "$seed" >>"$dir/seed.log" 2>&1 || true
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print(r["supplier_calls"] if not r["error"] else "error")' \
      "$json" 2>/dev/null || echo "no report"
  }
  seed_cells=() seed_ok=true
  mapfile -t designs < <("$build/durasim" stores-list | awk '{print $1}')
  ((${#designs[@]} >= 3)) || seed_ok=false  # kafka-rewind, kafka-rewrite, fluss at least
  for design in "${designs[@]}"; do
    production=$(calls "$design" </dev/null) legacy=$(calls "$design" legacy-end-offset-marker </dev/null)
    [[ $production == 1 && $legacy == 2 ]] || seed_ok=false
    seed_cells+=("$design $production/$legacy")
  done

  "$build/put_latency_bench" --no-mock --bootstrap-servers "$bootstrap" >"$dir/bench.log" 2>&1 || tests=FAILED
  # Columns from the left (put_latency_bench's PrintLatency and PrintRebuilds).
  p50=$(awk '/^store: produce, flush, await/ { print $6 }' "$dir/bench.log")
  batched=$(awk '/^batched writes/ { print $5 }' "$dir/bench.log")
  per_put=$(awk '/^one put per record/ { print $7 }' "$dir/bench.log")
  $seed_ok || tests=FAILED
  printf '| %s | %s (%s) | %s | %s | %s | %s |\n' "$DURASIM_KAFKA_VERSION" "$tests" "$summary" \
    "$(IFS=,; echo "${seed_cells[*]}" | sed 's/,/, /g')" "${p50:-?}" "${batched:-?}" "${per_put:-?}" >"$dir/row.md"
  [[ $tests == passed ]]
  exit
fi

if [[ ! -x $build/durasim || ! -x $build/put_latency_bench ]]; then
  echo "matrix: build/ has no durasim or put_latency_bench; run ci/build.sh first" >&2
  exit 2
fi
if (($# > 0)); then
  versions=("$@")
else
  mapfile -t versions < <(grep -v '^#' "$here/versions" | grep .)
fi
for version in "${versions[@]}"; do
  if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "matrix: '$version' is not a version such as 4.0.2 (tested ones: ci/kafka/versions)" >&2
    exit 2
  fi
done
mkdir -p "$out"
table=$out/matrix.md
{
  echo "| Kafka | real-broker ctests | seed: supplier calls, production/legacy marker | put p50 ms | rebuild rec/s, batched log | rebuild rec/s, one put per record |"
  echo "|---|---|---|---|---|---|"
} >"$table"
failed=()
for version in "${versions[@]}"; do
  dir=$out/$version
  rm -rf "$dir" && mkdir -p "$dir"
  echo "== Kafka $version (logs in $dir)"
  start=$SECONDS
  if ! KAFKA_VERSION=$version bash "$here/with-broker.sh" bash "$0" --inside "$dir" >"$dir/broker-run.log" 2>&1; then
    failed+=("$version")
    tail -n 5 "$dir/broker-run.log"
  fi
  if [[ -f $dir/row.md ]]; then
    cat "$dir/row.md" >>"$table"
  else
    printf '| %s | FAILED before the tests (see %s) | | | | |\n' "$version" "$dir/broker-run.log" >>"$table"
    [[ ${failed[*]:-} == *"$version"* ]] || failed+=("$version")  # e.g. with-broker.sh skipped: no java
  fi
  echo "   $((SECONDS - start)) s"
done
echo
cat "$table"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), librdkafka $(pkg-config --modversion rdkafka 2>/dev/null || echo '?')"
if ((${#failed[@]} > 0)); then
  echo "matrix: failed on ${failed[*]}" >&2
  exit 1
fi
