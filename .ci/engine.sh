#!/usr/bin/env bash
# A Docker engine of its own for the docker backend's tests: started by hand (no systemd), with
# gVisor's runsc registered as a runtime, and a small test image built here (no registry is
# reachable). Everything it makes lives under one directory, and `stop` removes all of it again:
# containers, the daemon and its containerd, shims and runsc sandboxes, mounts, cgroups.
#
#   bash .ci/engine.sh start DIR   # prints the DOCKER_HOST to use
#   bash .ci/engine.sh restart DIR # the daemon stopped (its containers with it) and started again
#   bash .ci/engine.sh stop DIR
#
# Root only (dockerd). DIR must be short: the socket's path must stay under 108 bytes.
set -euo pipefail

cmd=${1:?usage: engine.sh start|restart|stop DIR}
dir=${2:?usage: engine.sh start|stop DIR}
image=${CINCH_TEST_IMAGE:-cinch-test:1}

# Processes of this engine: each names DIR in its arguments (dockerd, its containerd, the shims,
# runsc and its sandboxes). Never anything else on the machine.
engine_pids() {
  local pid
  for pid in $(pgrep -f -- "$dir/" || true); do
    [ "$pid" != "$$" ] && [ "$pid" != "$BASHPID" ] && echo "$pid"
  done
}

start() {
  if ! command -v dockerd >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq docker.io >/dev/null
  fi
  mkdir -p "$dir"
  runsc=$(command -v runsc || echo /usr/bin/runsc)
  # --network=none: this runsc misdetects the network namespace on this kernel otherwise (every
  # start fails with "cannot run with network enabled in root network namespace"); our containers
  # have no network anyway.
  cat >"$dir/daemon.json" <<EOF
{
  "runtimes": { "runsc": { "path": "$runsc", "runtimeArgs": ["--network=none"] } },
  "deprecated-key-path": "$dir/key.json"
}
EOF
  start_daemon
  build_image
  echo "$DOCKER_HOST"
}

start_daemon() {
  dockerd --iptables=false --ip-masq=false --bridge=none \
    --host "unix://$dir/docker.sock" --data-root "$dir/data" --exec-root "$dir/exec" \
    --pidfile "$dir/docker.pid" --config-file "$dir/daemon.json" >>"$dir/dockerd.log" 2>&1 &
  export DOCKER_HOST="unix://$dir/docker.sock"
  for _ in $(seq 1 100); do
    docker version >/dev/null 2>&1 && break
    sleep 0.1
  done
  docker version >/dev/null || { tail -20 "$dir/dockerd.log" >&2; exit 1; }
}

# What a user's engine does when Docker Desktop or the service restarts: the daemon ends (it stops
# its containers), and a new one starts on the same data (the image stays).
restart() {
  [ -f "$dir/daemon.json" ] || { echo "engine.sh: no engine of ours in $dir" >&2; exit 1; }
  stop_daemon 300
  start_daemon
}

# Ends the daemon and waits for it, at most $1 tenths of a second.
stop_daemon() {
  local pid
  pid=$(cat "$dir/docker.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 "$1"); do
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
}

# The host's python3 and node with the libraries they load, timeout for the in-container
# backstop: ~1 s, no registry. The official images set PYTHON_VERSION and NODE_VERSION; so does
# this one, which is how the backend learns the versions it offers.
build_image() {
  local root="$dir/image" py node pyver nodever
  rm -rf "$root"
  mkdir -p "$root"
  py=$(readlink -f /usr/bin/python3)
  node=$(readlink -f /usr/bin/node)
  pyver=$("$py" -c 'import platform; print(platform.python_version())')
  nodever=$("$node" --version | tr -d v)
  # Canonical paths only (this is a merged-/usr system: /lib is usr/lib), with the same links.
  {
    for bin in "$py" "$node" /usr/bin/timeout /usr/bin/sleep; do
      echo "$bin"
      ldd "$bin" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'
    done
    find "/usr/lib/$(basename "$py")" -path '*/test' -prune -o -path '*/dist-packages' -prune \
      -o -type f -print
  } | while read -r f; do
    # The file itself, and its name (a link such as libz.so.1) in the canonical directory.
    readlink -f "$f"
    echo "$(readlink -f "$(dirname "$f")")/$(basename "$f")"
  done | sort -u | tar -cf - -T - 2>/dev/null | tar -xf - -C "$root"
  mkdir -p "$root/usr/lib64" "$root/tmp" "$root/etc" "$root/proc" "$root/dev" "$root/sys"
  chmod 1777 "$root/tmp"
  ln -s usr/bin "$root/bin"
  ln -s usr/lib "$root/lib"
  ln -s usr/lib64 "$root/lib64"
  ln -sf /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$root/usr/lib64/ld-linux-x86-64.so.2"
  [ -e "$root/usr/bin/python3" ] || ln -s "$(basename "$py")" "$root/usr/bin/python3"
  [ -e "$root/usr/bin/node" ] || ln -s "$node" "$root/usr/bin/node"
  tar -C "$root" -c . | docker import \
    -c "ENV PATH=/usr/local/bin:/usr/bin:/bin" \
    -c "ENV PYTHON_VERSION=$pyver" -c "ENV NODE_VERSION=$nodever" - "$image" >/dev/null
  [ "${CINCH_KEEP_IMAGE_ROOT:-}" ] || rm -rf "$root"
}

stop() {
  export DOCKER_HOST="unix://$dir/docker.sock"
  if [ -S "$dir/docker.sock" ]; then
    ids=$(docker ps -aq 2>/dev/null || true)
    [ -n "$ids" ] && docker rm -f $ids >/dev/null 2>&1 || true
  fi
  [ -f "$dir/docker.pid" ] && stop_daemon 100
  # Whatever survived the daemon (a shim or sandbox of a start that failed under runsc).
  pids=$(engine_pids)
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
  for _ in $(seq 1 50); do
    [ -z "$(engine_pids)" ] && break
    sleep 0.1
  done
  # Mounts under DIR, deepest first.
  { grep -F " $dir/" /proc/self/mounts || true; } | awk '{ print $2 }' | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null || true; done
  # The containers' cgroups (dockerd's cgroupfs driver puts them under docker/).
  for cg in /sys/fs/cgroup/*/docker /sys/fs/cgroup/docker; do
    [ -d "$cg" ] || continue
    find "$cg" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null || true
    rmdir "$cg" 2>/dev/null || true
  done
  rm -rf "$dir"
  left=$(engine_pids)
  if [ -n "$left" ] || grep -qF " $dir/" /proc/self/mounts; then
    echo "engine.sh: left behind: processes [$left], mounts:" >&2
    grep -F " $dir/" /proc/self/mounts >&2 || true
    exit 1
  fi
}

case "$cmd" in
  start) start ;;
  restart) restart ;;
  stop) stop ;;
  *) echo "usage: engine.sh start|restart|stop DIR" >&2; exit 2 ;;
esac
