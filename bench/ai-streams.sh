#!/usr/bin/env bash
# Holds N AI chat streams open at once on one server and measures what they
# cost it: goroutines, Go heap in use and resident memory, read from the
# server's own /metrics before and while the streams are open; then checks
# that every stream ends with [DONE] and no error.
#
# The site (built from this tree, on SQLite) and the fake provider
# (internal/agent/aitest/cmd/fakeai -hold, which waits after the first chunk
# of every answer) run as separate processes on loopback; N curl clients
# each post one question. The site trusts 127.0.0.1 as a proxy and each
# client names its own address in X-Forwarded-For, so the per-address rate
# limit and stream cap see N different visitors.
#
# Usage: bench/ai-streams.sh [streams, default 200] [hold, default 15s]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-200}" hold="${2:-15s}"
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
metric() { curl -fs "$base/metrics" | awk -v m="$1" '$1 == m { printf "%d", $2 }'; }

go build -o "$work/tribe" ./cmd/tribe
go build -o "$work/fakeai" ./internal/agent/aitest/cmd/fakeai
"$work/fakeai" -addr 127.0.0.1:0 -pause 5ms -hold "$hold" >"$work/fakeai.out" &
pids+=($!)
for _ in $(seq 1 100); do grep -q serving "$work/fakeai.out" 2>/dev/null && break; sleep 0.1; done
ai_url=$(sed -n 's/^fakeai: serving //p' "$work/fakeai.out")

port=$(free_port) base="http://127.0.0.1:$port"
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/data" TRIBE_TRUSTED_PROXIES=127.0.0.1 \
  AI_BASE_URL="$ai_url" AI_MODEL=fake "$work/tribe" serve 2>"$work/tribe.log" &
pids+=($!)
tribe_pid=$!
for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
# Warm up: one whole answer, so pools and caches exist before the baseline.
curl -fsN -H 'Content-Type: application/json' -H 'X-Forwarded-For: 10.8.0.1' \
  -d '{"messages":[{"role":"user","content":"warm up"}]}' "$base/api/ai/chat" >/dev/null

g0=$(metric go_goroutines) h0=$(metric go_memstats_heap_inuse_bytes) r0=$(metric process_resident_memory_bytes)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git describe --always --dirty), $n streams, provider holds each answer $hold"
start=$(date +%s.%N)
clients=()
for i in $(seq 1 "$n"); do
  curl -sN -H 'Content-Type: application/json' -H "X-Forwarded-For: 10.9.$((i / 250)).$((i % 250 + 1))" \
    -d "{\"messages\":[{\"role\":\"user\",\"content\":\"What does the tribe cost? ($i)\"}]}" \
    -o "$work/s$i.out" -w '%{http_code}\n' "$base/api/ai/chat" >"$work/s$i.code" &
  clients+=($!)
done
spawned=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
# Open means: the site searched the knowledge base and its request to the
# provider is waiting (the provider holds it).
for _ in $(seq 1 300); do
  open=$(grep -l '"status":"completed"' "$work"/s*.out 2>/dev/null | wc -l)
  [ "$open" -ge "$n" ] && break
  sleep 0.1
done
sleep 1
opened=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
g1=$(metric go_goroutines) h1=$(metric go_memstats_heap_inuse_bytes) r1=$(metric process_resident_memory_bytes)
printf 'streams open: %d of %d after %ss (clients started within %ss)\n' "$open" "$n" "$opened" "$spawned"
printf 'goroutines:   %d -> %d, %.1f per stream\n' "$g0" "$g1" "$(echo "($g1 - $g0) / $n" | bc -l)"
printf 'heap in use:  %.1f MB -> %.1f MB, %.1f KB per stream\n' "$(echo "$h0/1048576" | bc -l)" "$(echo "$h1/1048576" | bc -l)" "$(echo "($h1 - $h0) / $n / 1024" | bc -l)"
printf 'resident:     %.1f MB -> %.1f MB, %.1f KB per stream\n' "$(echo "$r0/1048576" | bc -l)" "$(echo "$r1/1048576" | bc -l)" "$(echo "($r1 - $r0) / $n / 1024" | bc -l)"

for pid in "${clients[@]}"; do wait "$pid" || true; done
finished=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
ok=0 bad=0
for i in $(seq 1 "$n"); do
  if [ "$(cat "$work/s$i.code")" = 200 ] && tail -c 20 "$work/s$i.out" | grep -q 'data: \[DONE\]' && ! grep -q 'AI Error' "$work/s$i.out"; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    [ "$bad" -le 3 ] && { echo "stream $i failed (HTTP $(cat "$work/s$i.code")):"; tail -c 300 "$work/s$i.out"; echo; }
  fi
done
printf 'finished:     %d with [DONE] and no error, %d failed, all within %ss (each answer is two held turns: %s x 2)\n' \
  "$ok" "$bad" "$finished" "$hold"
printf 'server errors logged: %d\n' "$(grep -c 'level=ERROR' "$work/tribe.log" || true)"
kill -0 "$tribe_pid"
[ "$bad" -eq 0 ]
