#!/usr/bin/env bash
# Times the README's two quick-start commands as on a fresh machine (issue
# 31): a minimal Debian bookworm (debootstrap) in ROOT_DIR, given what a new
# machine of this kind has before a session (gcc and g++, make, cmake, ninja,
# GoogleTest, git, Python with pytest, OpenJDK 17 and Maven, this machine's
# CA certificates, which TLS to Maven Central needs here) and nothing of the
# project's: no packages it installs, no ccache cache, no Maven repository.
# A clean clone of this repository's HEAD goes to ROOT_DIR/root/durasim, and
# the two commands run there one after the other, as a user runs them:
#
#   bench/fresh_machine.sh ROOT_DIR
#
# Prints each command's exit code and wall time (also in
# ROOT_DIR/root/qs-times.txt; each command's output in ROOT_DIR/root/qsN.log).
# Needs root and debootstrap (apt-get install debootstrap). The same kernel
# and cores as the machine it runs on: run it with nothing else running.
# ROOT_DIR is made anew (an existing one is refused); the mounts it makes
# are undone at the end.
set -euo pipefail
if (($# != 1)); then
  echo "usage: $0 ROOT_DIR" >&2
  exit 2
fi
root=$1
if [[ -e $root ]]; then
  echo "fresh_machine: $root exists; give a new directory" >&2
  exit 2
fi
command -v debootstrap >/dev/null || {
  echo "fresh_machine: needs debootstrap (apt-get install debootstrap)" >&2
  exit 2
}
repo=$(cd "$(dirname "$0")/.." && pwd)

debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log" 2>&1 || {
  echo "fresh_machine: debootstrap failed: see $root.debootstrap.log" >&2
  exit 1
}
unmount() { umount -R "$root/proc" "$root/sys" "$root/dev" 2>/dev/null || true; }
trap unmount EXIT
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
if [[ -e /etc/apt/sources.list.d/debian.sources ]]; then
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
  rm -f "$root/etc/apt/sources.list"
fi
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true

# What a new machine has before the session (not timed).
chroot "$root" bash -c 'export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q build-essential cmake ninja-build googletest libgtest-dev git \
    python3 python3-pytest ca-certificates openjdk-17-jdk-headless maven sudo && update-ca-certificates' \
  >"$root.base.log" 2>&1 || {
  echo "fresh_machine: installing the machine's base failed: see $root.base.log" >&2
  exit 1
}

git clone -q "$repo" "$root/root/durasim"
echo "fresh_machine: $(git -C "$root/root/durasim" log --oneline -1)"
cat >"$root/root/quick_start.sh" <<'EOF'
#!/bin/bash
cd /root/durasim
export DEBIAN_FRONTEND=noninteractive
for n in 1 2; do
  script=ci/regress.sh
  [[ $n == 2 ]] && script=ci/test.sh
  start=$(date +%s.%N)
  bash "$script" >/root/qs$n.log 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "quick start $n (bash $script): rc=$rc, $(python3 -c "print(round($end - $start))") s" | tee -a /root/qs-times.txt
  [[ $rc == 0 ]] || exit "$rc"
done
EOF
chmod +x "$root/root/quick_start.sh"
chroot "$root" /root/quick_start.sh
