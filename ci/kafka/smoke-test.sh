#!/usr/bin/env bash
# smoke-test.sh: end-to-end check of the CI broker scripts. Through
# with-broker.sh it creates a compacted topic with the broker's own
# kafka-topics (TopicCommand), produces 3 keyed records with kcat, consumes
# them back with kcat and compares. Exit 0 = the broker works for clients.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# Outside: re-run this script as the command of with-broker.sh.
if [[ ${1:-} != --inside ]]; then
  exec bash "$here/with-broker.sh" bash "$here/smoke-test.sh" --inside
fi

bootstrap=$DURASIM_KAFKA_BOOTSTRAP
topic=durasim-smoke

# kafka-topics from the same jars; its INFO log (stderr) is shown only on failure.
topics() {
  local out
  if ! out=$(java -Xmx256m "-Dlog4j.configuration=file:$here/log4j.properties" \
      -cp "$DURASIM_KAFKA_LIBS/*" org.apache.kafka.tools.TopicCommand \
      --bootstrap-server "$bootstrap" "$@" 2>&1); then
    echo "smoke-test: kafka-topics $* failed:" >&2
    echo "$out" >&2
    return 1
  fi
  echo "$out"
}

topics --create --topic "$topic" --partitions 2 --replication-factor 1 \
  --config cleanup.policy=compact >/dev/null
description=$(topics --describe --topic "$topic")
if [[ $description != *cleanup.policy=compact* ]]; then
  printf 'smoke-test: FAILED: %s is not compacted:\n%s\n' "$topic" "$description" >&2
  exit 1
fi

# Compacted topics reject records without a key, so every record has one:
# -K= splits each line into key=value. acks=all: kcat fails unless stored.
expected=$'k1=v1\nk2=v2\nk3=v3'
kcat -b "$bootstrap" -P -t "$topic" -K= -X acks=all <<<"$expected"

# -e: exit once every partition is at its end. The two partitions'
# records interleave arbitrarily, hence the sort.
got=$(kcat -b "$bootstrap" -C -t "$topic" -o beginning -e -q -f '%k=%s\n' | sort)
if [[ $got != "$expected" ]]; then
  printf 'smoke-test: FAILED\nexpected:\n%s\ngot:\n%s\n' "$expected" "$got" >&2
  exit 1
fi

rss_mib=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$DURASIM_KAFKA_PID/status")
echo "smoke-test: OK, 3 records round-tripped through compacted topic $topic" \
  "(2 partitions) at $bootstrap; broker RSS $rss_mib MiB"
