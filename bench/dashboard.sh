#!/usr/bin/env bash
# The members' dashboard with progress: what a subscriber's dashboard asks
# for (GET /api/members/overview, /api/sessions, /api/members/me/progress)
# with 50 subscribed members and 200 sessions (150 past with RSVPs and
# attendance), through the whole handler, on SQLite and PostgreSQL
# (TEST_DATABASE_URL). Runs BenchmarkMembersDashboard and puts its numbers
# at the top of bench/RESULTS.md. The target is a p99 under 10 ms.
# Usage: bench/dashboard.sh [dashboards per engine, default 2000]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
n="${1:-2000}"
bench_cmd=(go test ./internal/web -run '^$' -bench '^BenchmarkMembersDashboard$' -benchtime "${n}x" -cpu 1 -count=1 -timeout 10m)
bench_cmd_text="${bench_cmd[*]}"
bench_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$("${bench_cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
# One line per engine: the metrics the benchmark reports, in ms.
bench_lines=$(grep '^BenchmarkMembersDashboard/' <<<"$out" | python3 -c '
import sys
keys = ["dashboard-p50-ms", "dashboard-p99-ms", "dashboard-cpu-p50-ms", "dashboard-cpu-p99-ms",
        "overview-p99-ms", "sessions-p99-ms", "progress-p99-ms"]
for line in sys.stdin:
    f = line.split()
    name = f[0].split("/")[1].split("-")[0]
    m = {f[i + 1]: f[i] for i in range(2, len(f) - 1, 2)}
    print(name + ": " + ", ".join(k.replace("-ms", "") + " " + m.get(k, "?") + " ms" for k in keys))
')
echo "$bench_lines"
bench_record "Members' dashboard with progress, 50 members and 200 sessions (\`bench/dashboard.sh $n\`)" \
  "One dashboard is the three requests the Dashboard tab makes, one after the other, as a subscriber, through the whole handler (every middleware); \`cpu\` is the processor time of the thread serving them (the benchmark pins itself to one thread), which waiting for a busy machine's cores does not inflate."
