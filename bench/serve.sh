#!/usr/bin/env bash
# Measures how fast the binary serves the app: the HTML of / (what every visit
# fetches), a hashed JS asset (brotli) and /readyz (one database round trip),
# on SQLite. Needs wrk (apt-get install wrk) and a built bin/tribe.
# Usage: bench/serve.sh [duration, default 10s]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-10s}"
command -v wrk >/dev/null || { echo "install wrk first: apt-get install wrk" >&2; exit 1; }
. bench/lib.sh
asset=$(curl -fs "$base/" | grep -oE '/assets/[^"]+\.js' | head -n1)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, bin/tribe $(bin/tribe version | cut -d' ' -f2), wrk -t2 -c32 -d$dur"
for target in "/" "$asset" "/readyz"; do
  printf '\n## GET %s\n' "$target"
  wrk -t2 -c32 -d"$dur" --latency -H 'Accept-Encoding: br, gzip' "$base$target" |
    grep -E 'Requests/sec|Transfer/sec|Latency|50%|99%|Non-2xx|errors'
done
