#!/usr/bin/env bash
# Installs what durasim needs from Debian bookworm, idempotently: packages
# already present are left alone, and apt-get update runs only when
# something is missing.
#   ci/install-deps.sh                    what building and the regression suite need (quick start 1)
#   ci/install-deps.sh --with-test-tools  that and what only tests use: a JDK and Maven for the real
#                                         Kafka broker and Fluss cluster, kcat, Chromium (quick start 2)
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config ccache python3
  libboost1.81-dev librdkafka-dev librapidcheck-dev libfmt-dev libyaml-cpp-dev
  libcli11-dev libgtest-dev nlohmann-json3-dev
  # tcmalloc for the simulator's programs (CMakeLists.txt, DURASIM_TCMALLOC)
  libgoogle-perftools-dev
)
if [[ ${1:-} == --with-test-tools ]]; then
  packages+=(
    # the real-broker tests: Apache Kafka from Maven jars, kcat to probe it
    openjdk-17-jre-headless maven kcat
    # the real-Fluss tests: javac compiles durasim's Fluss gateway (ci/fluss/)
    openjdk-17-jdk-headless
    # the timeline's rendering test: headless Chromium draws the HTML to a PNG
    chromium
  )
elif [[ $# -gt 0 ]]; then
  echo "install-deps: unknown argument $1 (expected nothing or --with-test-tools)" >&2
  exit 2
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
