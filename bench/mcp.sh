#!/usr/bin/env bash
# MCP endpoint under load: tools/call search from 32 concurrent clients (the
# official Go SDK's request, replayed in a closed loop by bench/mcpload)
# against bin/tribe on SQLite, with the knowledge base seeded from the
# content at start. Prints p50/p90/p99 latency, requests per second, and the
# server's CPU time per request (user + system, from /proc), which a busy
# machine changes less than latency. Each request names another client
# address in X-Forwarded-For, so the per-address rate limit stays on the
# path without refusing the load.
# Usage: bench/mcp.sh [duration, default 10s] [clients, default 32] [tool, default search] [rate: requests/s offered, default 0 = closed loop]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-10s}" clients="${2:-32}" tool="${3:-search}" rate="${4:-0}"
export TRIBE_TRUSTED_PROXIES=127.0.0.1
. bench/lib.sh
go build -o "$bench_data/mcpload" ./bench/mcpload
cpu() { awk '{print $14 + $15}' "/proc/$bench_pid/stat"; } # clock ticks
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), bin/tribe $(bin/tribe version | cut -d' ' -f2), SQLite, $clients clients, $dur"
before=$(cpu)
out=$("$bench_data/mcpload" -url "$base/mcp" -clients "$clients" -d "$dur" -tool "$tool" -rate "$rate")
after=$(cpu)
echo "$out"
requests=$(echo "$out" | awk '/^requests/ {print $2}')
# The server's CPU covers the warm-up too; mcpload sends about as many requests per second then.
echo "$out" | awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" -v d="$dur" '
  /warm-up/ { for (i = 1; i <= NF; i++) if ($i == "after") w = $(i + 1) }
  END { sub(/s$/, "", w); sub(/s$/, "", d); printf "server CPU %.2f ms per request (%.1f s over about %d requests)\n", 1000 * t / hz / (n * (d + w) / d), t / hz, n * (d + w) / d }'
