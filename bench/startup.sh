#!/usr/bin/env bash
# Cold start (process start to the first answered /readyz or /api/health),
# the processor time the process had spent by then (the sum over its threads'
# /proc schedstat: what a busy machine's waiting does not inflate) and idle
# memory (RSS a second after start) of bin/tribe and PocketBase, each on a
# fresh data directory, median of five starts.
# Usage: bench/startup.sh   (PocketBase: go install github.com/pocketbase/pocketbase/examples/base@v0.39.11)
set -euo pipefail
cd "$(dirname "$0")/.."
tribe="${TRIBE_BIN:-bin/tribe}"
pb="${POCKETBASE:-$(go env GOPATH)/bin/base}"
[ -x "$tribe" ] || make build
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
measure() { # name url-path command...
  local name=$1 path=$2; shift 2
  local starts=() rss=() cpus=() anon=() file=()
  for _ in 1 2 3 4 5; do
    local dir port
    dir=$(mktemp -d) port=$(free_port)
    local t0 t1
    t0=$(date +%s%N)
    (PORT=$port DIR=$dir; eval "exec $*") >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 1 5000); do curl -fs -o /dev/null "http://127.0.0.1:$port$path" && break; kill -0 $pid 2>/dev/null || { echo "$name did not start" >&2; exit 1; }; sleep 0.002; done
    t1=$(date +%s%N)
    cpus+=($(cat /proc/$pid/task/*/schedstat 2>/dev/null | awk '{ns += $1} END {printf "%d", ns / 1e6}'))
    sleep 1
    starts+=($(( (t1 - t0) / 1000000 )))
    rss+=($(( $(awk '/VmRSS/ {print $2}' /proc/$pid/status) / 1024 )))
    # Resident pages of the process's own memory, and of files mapped (mostly its binary's code, which
    # the kernel maps around each page a start-up touches, 64 KB at a time).
    anon+=($(( $(awk '/RssAnon/ {print $2}' /proc/$pid/status) / 1024 )))
    file+=($(( $(awk '/RssFile/ {print $2}' /proc/$pid/status) / 1024 )))
    kill $pid; wait $pid 2>/dev/null || true
    rm -rf "$dir"
  done
  local s r c a f
  a=$(printf '%s\n' "${anon[@]}" | sort -n | sed -n 3p)
  f=$(printf '%s\n' "${file[@]}" | sort -n | sed -n 3p)
  s=$(printf '%s\n' "${starts[@]}" | sort -n | sed -n 3p)
  r=$(printf '%s\n' "${rss[@]}" | sort -n | sed -n 3p)
  c=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 3p)
  printf '%-12s cold start %4d ms   CPU to ready %4d ms   idle RSS %3d MB (own %d, files %d)   (starts: %s; CPU: %s)\n' \
    "$name" "$s" "$c" "$r" "$a" "$f" "${starts[*]}" "${cpus[*]}"
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, bin/tribe $("$tribe" version | cut -d' ' -f2), median of 5"
measure tribe /readyz 'env TRIBE_ADDR=127.0.0.1:$PORT TRIBE_DATA_DIR=$DIR '"$tribe"' serve'
[ -x "$pb" ] && measure pocketbase /api/health "$pb"' serve --http 127.0.0.1:$PORT --dir $DIR'
