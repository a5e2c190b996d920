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
n="${1:-2000}"
cmd=(go test ./internal/web -run '^$' -bench '^BenchmarkMembersDashboard$' -benchtime "${n}x" -cpu 1 -count=1 -timeout 10m)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$("${cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
# One table row per engine: the metrics the benchmark reports, in ms.
rows=$(grep '^BenchmarkMembersDashboard/' <<<"$out" | python3 -c '
import sys
keys = ["dashboard-p50-ms", "dashboard-p99-ms", "dashboard-cpu-p50-ms", "dashboard-cpu-p99-ms",
        "overview-p99-ms", "sessions-p99-ms", "progress-p99-ms"]
for line in sys.stdin:
    f = line.split()
    name = f[0].split("/")[1].split("-")[0]
    m = {f[i + 1]: f[i] for i in range(2, len(f) - 1, 2)}
    print("| " + name + " | " + " | ".join(m.get(k, "?") for k in keys) + " |")
')
echo "$rows"
block=$(
  echo "## Members' dashboard with progress, 50 members and 200 sessions (\`bench/dashboard.sh $n\`)"
  echo
  echo "Command: \`${cmd[*]}\`. One dashboard is the three requests the Dashboard tab makes, one after the"
  echo "other, as a subscriber, through the whole handler (every middleware); \`cpu\` is the processor time of"
  echo "the thread serving them (the benchmark pins itself to one thread), which waiting for a busy machine's"
  echo "cores does not inflate. Milliseconds."
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| engine | dashboard p50 | dashboard p99 | cpu p50 | cpu p99 | overview p99 | sessions p99 | progress p99 |"
  echo "|---|---|---|---|---|---|---|---|"
  echo "$rows"
)
BLOCK="$block" python3 - <<'PY'
import os
p = "bench/RESULTS.md"
s = open(p).read()
i = s.index("\n## ")
open(p, "w").write(s[:i] + "\n" + os.environ["BLOCK"] + "\n" + s[i:])
PY
