#!/usr/bin/env bash
# Insights: the report of 12 months over 5,000 accounts and 50,000 membership
# ledger rows (300 on the wait list, 52 sessions with RSVPs), on SQLite and
# PostgreSQL (TEST_DATABASE_URL): 300 calls with the replayed ledger kept, and
# 50 calls each after a new ledger row. Runs the Go test TestInsightsBench
# and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test INSIGHTS_BENCH 'seeded|insights (sqlite|postgres)' -- go test ./internal/insights -run '^TestInsightsBench$' -count=1 -v -timeout 20m
bench_record "Insights (\`bench/insights.sh\`)" \
  "In-process calls to \`insights.Build\` (what \`GET /api/admin/insights\` runs) for the last 12 months, over 5,000 accounts with 10 ledger rows each (50,000), 300 wait-list entries and 52 sessions with 20 RSVPs each; no bookings. \"ledger kept\": the replayed ledger is in memory (it changes only when a membership does); \"ledger changed\": a row is added before each call, so the rows recorded since are read and the ledger replayed again."
