#!/usr/bin/env bash
# Measures how fast the binary serves the app: the HTML of / (what every visit
# fetches), a hashed JS asset (brotli) and /readyz (one database round trip),
# on SQLite. Needs wrk (apt-get install wrk) and a built bin/tribe.
# Usage: bench/serve.sh [duration, default 10s]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-10s}"
command -v wrk >/dev/null || { echo "install wrk first: apt-get install wrk" >&2; exit 1; }
[ -x bin/tribe ] || make build
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$data" bin/tribe serve 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
asset=$(curl -fs "http://127.0.0.1:$port/" | grep -oE '/assets/[^"]+\.js' | head -n1)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, bin/tribe $(bin/tribe version | cut -d' ' -f2), wrk -t2 -c32 -d$dur"
for target in "/" "$asset" "/readyz"; do
  printf '\n## GET %s\n' "$target"
  wrk -t2 -c32 -d"$dur" --latency -H 'Accept-Encoding: br, gzip' "http://127.0.0.1:$port$target" |
    grep -E 'Requests/sec|Transfer/sec|Latency|50%|99%|Non-2xx|errors'
done
