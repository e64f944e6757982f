#!/usr/bin/env bash
# start-broker.sh BOOTSTRAP_FILE
#
# Starts a single-node Apache Kafka broker (KRaft, broker+controller in one
# JVM) on 127.0.0.1, from Maven Central jars, in the background. On success
# BOOTSTRAP_FILE holds "127.0.0.1:PORT" and BOOTSTRAP_FILE.workdir the path of
# the broker's temp dir (config, data, broker.log, broker.pid), which
# stop-broker.sh BOOTSTRAP_FILE uses to stop it and clean up.
#
# Environment (all optional):
#   KAFKA_VERSION        broker version (default: the last of ci/kafka/versions)
#   KAFKA_LIBS           jar cache (default: <repo>/build/kafka-libs/<version>)
#   KAFKA_START_TIMEOUT  seconds to wait for the broker (default: 60)
#   KAFKA_HEAP_OPTS      JVM heap (default: -Xms256m -Xmx512m)
#   KAFKA_FETCH_TIMEOUT  seconds allowed for the Maven jar fetch (default: 600)
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BOOTSTRAP_FILE" >&2
  exit 2
fi
bootstrap_file=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ci/kafka/version.sh
source "$here/version.sh"
libs=$KAFKA_LIBS
timeout_s=${KAFKA_START_TIMEOUT:-60}
heap_opts=${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}

now() { echo "$EPOCHREALTIME"; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Idempotent: a broker already running for this BOOTSTRAP_FILE is reused; the
# remains of a dead one are cleaned up first.
if [[ -f $bootstrap_file.workdir ]]; then
  old=$(cat "$bootstrap_file.workdir")
  if [[ -f $bootstrap_file && -f $old/broker.pid ]] && kill -0 "$(cat "$old/broker.pid")" 2>/dev/null; then
    echo "kafka broker already running at $(cat "$bootstrap_file") (workdir $old)"
    exit 0
  fi
  bash "$here/stop-broker.sh" "$bootstrap_file"
fi

# 1. Jars. The stamp holds a hash of pom.xml and the version, so editing the
# pom refetches; otherwise the cache is reused. Fetch into a
# private dir and rename, so an interrupted or concurrent fetch never leaves
# a half-filled cache behind.
stamp=$({ cat "$here/pom.xml"; echo "kafka.version=$KAFKA_VERSION"; } | sha256sum | cut -d' ' -f1)
if [[ $(cat "$libs/.pom-sha256" 2>/dev/null) != "$stamp" ]]; then
  t0=$(now)
  mkdir -p "$(dirname "$libs")"
  fresh=$(mktemp -d "$libs.tmp.XXXXXX")
  # -q keeps Maven silent on success; its log is shown only if it fails.
  # timeout: a stalled mirror must fail the job, not hang it.
  if ! timeout "${KAFKA_FETCH_TIMEOUT:-600}" mvn -B -q -f "$here/pom.xml" dependency:copy-dependencies \
      -Dkafka.version="$KAFKA_VERSION" -DoutputDirectory="$fresh" -DincludeScope=runtime >"$fresh.log" 2>&1; then
    cat "$fresh.log" >&2
    rm -rf "$fresh" "$fresh.log"
    echo "start-broker: fetching the jars of Kafka $KAFKA_VERSION with Maven failed" >&2
    exit 1
  fi
  echo "$stamp" >"$fresh/.pom-sha256"
  rm -rf "$fresh.log" "$libs"
  mv "$fresh" "$libs"
  echo "kafka $KAFKA_VERSION jars fetched into $libs in $(secs_since "$t0") s"
fi

# 2. A free port pair (PORT for clients, PORT+1 for the controller), below
# the Linux ephemeral range (32768+) so outgoing connections do not take it
# meanwhile. Probe with bash's /dev/tcp: a refused connect means free.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_ports() {
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    if ! port_in_use "$port" && ! port_in_use $((port + 1)); then return 0; fi
  done
  echo "start-broker: no free loopback port pair found" >&2
  return 1
}

# 3. Fresh work dir with config and KRaft storage. The marker file lets
# stop-broker.sh check that it only ever deletes a dir made here.
workdir=$(mktemp -d "${TMPDIR:-/tmp}/durasim-kafka.XXXXXX")
touch "$workdir/.durasim-kafka"
# Recorded now, not on success, so that stop-broker.sh can still clean up
# if this script is killed halfway (e.g. a cancelled CI job).
echo "$workdir" >"$bootstrap_file.workdir"
log=$workdir/broker.log
fail() {
  echo "start-broker: $1; last lines of $log:" >&2
  tail -n 60 "$log" >&2 || true
  if [[ -f $workdir/broker.pid ]]; then
    # wait reaps it, so that bash does not print a "Killed" job notice.
    { kill -KILL "$(cat "$workdir/broker.pid")" && wait "$(cat "$workdir/broker.pid")"; } 2>/dev/null || true
  fi
  rm -rf "$workdir" "$bootstrap_file.workdir"
  exit 1
}

# shellcheck disable=SC2206  # heap_opts is a word list on purpose
jvm=(java $heap_opts -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
  -Djava.awt.headless=true "-Dlog4j.configuration=file:$here/log4j.properties"
  -cp "$libs/*")  # quoted: Java, not the shell, expands the * wildcard

# A cluster id is 16 random bytes in URL-safe base64 without padding; made
# here to save a JVM start. Kafka avoids a leading '-' (it reads as an option).
cluster_id=-
while [[ $cluster_id == -* ]]; do
  cluster_id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
done

t0=$(now)
# Up to 3 attempts, but only when another process grabbed a port between the
# probe and the bind (e.g. parallel CI jobs); any other failure is final.
for attempt in 1 2 3; do
  pick_ports || fail "no free port"
  rm -rf "$workdir/data" "$workdir/broker.pid"
  sed -e "s#@WORKDIR@#$workdir#g" -e "s#@PORT@#$port#g" -e "s#@CONTROLLER_PORT@#$((port + 1))#g" \
    "$here/server.properties.in" >"$workdir/server.properties"
  "${jvm[@]}" kafka.tools.StorageTool format -t "$cluster_id" \
    -c "$workdir/server.properties" >"$log" 2>&1 || fail "formatting KRaft storage failed"

  "${jvm[@]}" kafka.Kafka "$workdir/server.properties" >>"$log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$workdir/broker.pid"

  deadline=$((SECONDS + timeout_s))
  until grep -q "Kafka Server started" "$log"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      if grep -q "Address already in use" "$log" && ((attempt < 3)); then
        echo "start-broker: port $port taken meanwhile, retrying" >&2
        continue 2
      fi
      fail "the broker exited during startup"
    fi
    ((SECONDS < deadline)) || fail "no 'Kafka Server started' within ${timeout_s} s"
    sleep 0.2
  done
  break
done

# Second, independent readiness check: a real client fetches metadata.
kcat -b "127.0.0.1:$port" -L -m 10 >"$workdir/kcat-probe.txt" 2>&1 ||
  fail "kcat could not fetch metadata from 127.0.0.1:$port"

echo "127.0.0.1:$port" >"$bootstrap_file"
# RSS from /proc rather than ps: procps is not in minimal images.
rss_mib=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$pid/status")
echo "kafka $KAFKA_VERSION broker pid $pid at 127.0.0.1:$port (controller $((port + 1))) started in $(secs_since "$t0") s," \
  "RSS $rss_mib MiB, log $log"
