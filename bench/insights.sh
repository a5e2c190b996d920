#!/usr/bin/env bash
# Insights: the report of 12 months over 5,000 accounts and 50,000 membership
# ledger rows (300 on the wait list, 52 sessions with RSVPs), on SQLite and
# PostgreSQL (TEST_DATABASE_URL): 300 calls with the replayed ledger kept, and
# 50 calls each after a new ledger row. Runs the Go test TestInsightsBench
# and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=(go test ./internal/insights -run '^TestInsightsBench$' -count=1 -v -timeout 20m)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(INSIGHTS_BENCH=1 "${cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
lines=$(grep -E 'seeded|insights (sqlite|postgres)' <<<"$out" | sed -E 's/^ +bench_test\.go:[0-9]+: //')
echo "$lines"
block=$(
  echo "## Insights (\`bench/insights.sh\`)"
  echo
  echo "Command: \`INSIGHTS_BENCH=1 ${cmd[*]}\`. In-process calls to \`insights.Build\` (what"
  echo "\`GET /api/admin/insights\` runs) for the last 12 months, over 5,000 accounts with 10 ledger rows each"
  echo "(50,000), 300 wait-list entries and 52 sessions with 20 RSVPs each; no bookings. \"ledger kept\": the"
  echo "replayed ledger is in memory (it changes only when a membership does); \"ledger changed\": a row is"
  echo "added before each call, so the rows recorded since are read and the ledger replayed again."
  echo
  echo '```'
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$lines"
  echo '```'
)
# Newest first: the block goes before the first section of RESULTS.md.
BLOCK="$block" python3 - <<'PY'
import os
p = "bench/RESULTS.md"
s = open(p).read()
i = s.index("\n## ")
open(p, "w").write(s[:i] + "\n" + os.environ["BLOCK"] + "\n" + s[i:])
PY
