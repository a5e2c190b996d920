#!/usr/bin/env bash
# Knowledge gaps with 20,000 stored questions, on SQLite and PostgreSQL
# (TEST_DATABASE_URL): each question stored through gaps.Service.Record (as a
# weak search stores it, clustered on write), then the admin page
# GET /api/admin/knowledge-gaps through the whole handler, the first and the
# tenth page 300 times each: latency quantiles and the answer's size. Runs
# the Go test TestKnowledgeGapsBench; paste its lines into bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test GAPS_BENCH 'seeded|knowledge gaps (sqlite|postgres)' -- go test ./internal/web -run '^TestKnowledgeGapsBench$' -count=1 -v -timeout 20m
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $bench_load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
