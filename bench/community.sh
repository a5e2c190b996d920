#!/usr/bin/env bash
# The community at issue 30's size: 5,000 threads with 20 replies each by 50
# subscribers, on SQLite and PostgreSQL (TEST_DATABASE_URL), through the
# whole handler as a subscriber: the list's first page, one thread with its
# replies, and a search. Runs BenchmarkCommunity and puts its numbers at the
# top of bench/RESULTS.md. The target is a p99 under 10 ms for the list and
# the thread.
# Usage: bench/community.sh [rounds per engine, default 500]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
n="${1:-500}"
bench_cmd=(go test ./internal/web -run '^$' -bench '^BenchmarkCommunity$' -benchtime "${n}x" -cpu 1 -count=1 -timeout 20m)
bench_cmd_text="${bench_cmd[*]}"
bench_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$("${bench_cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
bench_lines=$(grep '^BenchmarkCommunity/' <<<"$out" | python3 -c '
import sys
keys = ["list-p50-ms", "list-p99-ms", "thread-p50-ms", "thread-p99-ms", "search-p50-ms", "search-p99-ms"]
for line in sys.stdin:
    f = line.split()
    name = f[0].split("/")[1].split("-")[0]
    m = {f[i + 1]: f[i] for i in range(2, len(f) - 1, 2)}
    print(name + ": " + ", ".join(k.replace("-ms", "") + " " + m.get(k, "?") + " ms" for k in keys))
')
echo "$bench_lines"
bench_record "Community, 5,000 threads × 20 replies (\`bench/community.sh $n\`)" \
  "Each round is three requests as a subscriber through the whole handler: GET /api/community/threads (the first page, pinned threads and authors' levels included), GET /api/community/threads/{id} (a thread with its 20 replies) and a search of two words that most posts hold (the worst case: every post matches)."
