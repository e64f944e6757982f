#!/usr/bin/env bash
# start-cluster.sh STATE_FILE
#
# Starts a single-node Apache Fluss cluster on 127.0.0.1 from Maven Central
# jars (ci/fluss/pom.xml), in the background: ZooKeeper (shaded inside
# fluss-server), a CoordinatorServer, a TabletServer, and durasim's gateway
# (ci/fluss/gateway/FlussGateway.java, compiled here against fluss-client),
# the C++ side's way in. On success STATE_FILE holds the gateway's
# "127.0.0.1:PORT" and STATE_FILE.workdir the cluster's temp dir (configs,
# data, one log and one pid file per process), which stop-cluster.sh
# STATE_FILE uses to stop it all and clean up.
#
# Environment (all optional):
#   FLUSS_LIBS           jar cache (default: <repo>/build/fluss-libs/<version>)
#   FLUSS_START_TIMEOUT  seconds to wait for each process (default: 90)
#   FLUSS_FETCH_TIMEOUT  seconds allowed for the Maven jar fetch (default: 600)
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 STATE_FILE" >&2
  exit 2
fi
state_file=$1
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=ci/fluss/version.sh
source "$here/version.sh"
libs=$FLUSS_LIBS
timeout_s=${FLUSS_START_TIMEOUT:-90}

now() { echo "$EPOCHREALTIME"; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

if [[ -f $state_file.workdir ]]; then
  bash "$here/stop-cluster.sh" "$state_file"
fi

# 1. Jars, fetched into a private dir and renamed (as ci/kafka/start-broker.sh),
# and the gateway compiled against them. The stamp covers the pom, the
# version and the gateway's source.
stamp=$({ cat "$here/pom.xml" "$here/gateway/FlussGateway.java"; echo "fluss.version=$FLUSS_VERSION"; } |
  sha256sum | cut -d' ' -f1)
if [[ $(cat "$libs/.stamp-sha256" 2>/dev/null) != "$stamp" ]]; then
  t0=$(now)
  mkdir -p "$(dirname "$libs")"
  fresh=$(mktemp -d "$libs.tmp.XXXXXX")
  if ! timeout "${FLUSS_FETCH_TIMEOUT:-600}" mvn -B -q -f "$here/pom.xml" dependency:copy-dependencies \
      -Dfluss.version="$FLUSS_VERSION" -DoutputDirectory="$fresh/jars" -DincludeScope=runtime >"$fresh.log" 2>&1; then
    cat "$fresh.log" >&2
    rm -rf "$fresh" "$fresh.log"
    echo "start-cluster: fetching the jars of Fluss $FLUSS_VERSION with Maven failed" >&2
    exit 1
  fi
  rm -f "$fresh.log"
  if ! javac -Xlint:all,-try -Werror -d "$fresh/gateway" -cp "$fresh/jars/*" "$here/gateway/FlussGateway.java" >&2; then
    rm -rf "$fresh"
    echo "start-cluster: compiling ci/fluss/gateway/FlussGateway.java failed" >&2
    exit 1
  fi
  echo "$stamp" >"$fresh/.stamp-sha256"
  rm -rf "$libs"
  mv "$fresh" "$libs"
  echo "fluss $FLUSS_VERSION jars fetched and the gateway compiled into $libs in $(secs_since "$t0") s"
fi

# 2. Free loopback ports: ZooKeeper, the coordinator, the tablet server.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
taken=()  # ports already handed out: free ones, but not to be handed out twice
free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    if ! port_in_use "$port" && [[ " ${taken[*]} " != *" $port "* ]]; then
      taken+=("$port")
      echo "$port"
      return 0
    fi
  done
  echo "start-cluster: no free loopback port found" >&2
  return 1
}

workdir=$(mktemp -d "${TMPDIR:-/tmp}/durasim-fluss.XXXXXX")
touch "$workdir/.durasim-fluss"
echo "$workdir" >"$state_file.workdir"
# Whatever step fails from here on (fail, or set -e), nothing is left running.
started=
# shellcheck disable=SC2317  # only called through the EXIT trap
leave_nothing() { [[ -n $started ]] || bash "$here/stop-cluster.sh" "$state_file" >/dev/null 2>&1 || true; }
trap leave_nothing EXIT
fail() {
  echo "start-cluster: $1; last lines of $workdir/$2.log:" >&2
  tail -n 60 "$workdir/$2.log" >&2 || true
  bash "$here/stop-cluster.sh" "$state_file" >&2 || true
  exit 1
}

free_port >"$workdir/port" && zk_port=$(cat "$workdir/port")
free_port >"$workdir/port" && coordinator_port=$(cat "$workdir/port")
free_port >"$workdir/port" && tablet_port=$(cat "$workdir/port")
mkdir -p "$workdir/zk" "$workdir/coordinator" "$workdir/tablet" "$workdir/data" "$workdir/remote"
cat >"$workdir/zoo.cfg" <<CFG
tickTime=2000
dataDir=$workdir/zk
clientPort=$zk_port
clientPortAddress=127.0.0.1
admin.enableServer=false
CFG
# One server.yaml per server: each binds its own port. remote.data.dir is
# mandatory; a local path does. Replication factor 1: one tablet server.
server_yaml() {
  cat <<CFG
zookeeper.address: 127.0.0.1:$zk_port
bind.listeners: FLUSS://127.0.0.1:$1
data.dir: $workdir/data
remote.data.dir: $workdir/remote
tablet-server.id: 0
default.replication.factor: 1
CFG
}
server_yaml "$coordinator_port" >"$workdir/coordinator/server.yaml"
server_yaml "$tablet_port" >"$workdir/tablet/server.yaml"

jvm=(java -Xms64m -Xmx384m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
  --add-opens=java.base/java.nio=ALL-UNNAMED "-Dlog4j2.configurationFile=file:$here/log4j2.properties")
server_cp="$libs/jars/*"

# start NAME READY MAIN ARGS...: runs one process and waits until the
# command READY succeeds.
start() {
  local name=$1 ready=$2
  shift 2
  "${jvm[@]}" "$@" >"$workdir/$name.log" 2>&1 </dev/null &
  echo $! >"$workdir/$name.pid"
  local deadline=$((SECONDS + timeout_s))
  until eval "$ready"; do
    kill -0 "$(cat "$workdir/$name.pid")" 2>/dev/null || fail "the $name exited during startup" "$name"
    ((SECONDS < deadline)) || fail "the $name was not ready ($ready) within ${timeout_s} s" "$name"
    sleep 0.2
  done
}
logged() { grep -q "$2" "$workdir/$1.log"; }

t0=$(now)
start zookeeper 'port_in_use "$zk_port"' -cp "$server_cp" \
  org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.quorum.QuorumPeerMain "$workdir/zoo.cfg"
start coordinator "logged coordinator 'Successfully start Netty server'" -cp "$server_cp" \
  org.apache.fluss.server.coordinator.CoordinatorServer --configDir "$workdir/coordinator"
start tablet "logged tablet 'Registered tablet server 0'" -cp "$server_cp" \
  org.apache.fluss.server.tablet.TabletServer --configDir "$workdir/tablet"
start gateway '[[ -f $workdir/gateway.port ]]' -cp "$libs/gateway:$server_cp" \
  FlussGateway "127.0.0.1:$coordinator_port" "$workdir/gateway.port"

echo "127.0.0.1:$(cat "$workdir/gateway.port")" >"$state_file"
echo "127.0.0.1:$coordinator_port" >"$state_file.bootstrap"
started=1
echo "fluss $FLUSS_VERSION cluster (coordinator 127.0.0.1:$coordinator_port, tablet server $tablet_port," \
  "ZooKeeper $zk_port) and its gateway at $(cat "$state_file") started in $(secs_since "$t0") s, logs in $workdir"
