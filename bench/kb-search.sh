#!/usr/bin/env bash
# Knowledge-base search latency: 10,000 chunks with 1,536-dimension vectors on
# SQLite and PostgreSQL (TEST_DATABASE_URL), full text and hybrid, the
# labelled relevance questions as queries. Runs the Go benchmark test
# TestSearchLatency and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test KB_BENCH 'setup:|latency:' -- go test ./internal/kb -run '^TestSearchLatency$' -count=1 -v -timeout 30m
bench_record "Knowledge-base search (\`bench/kb-search.sh\`)" \
  "In-process calls to \`kb.Service.Search\` (limit 5), each of the 44 relevance questions 10 times; hybrid query vectors come from an in-process stand-in, so an embedding API's own round trip is not included (query vectors are cached; result caching is bypassed). cpu/query is this process's processor time per search (PostgreSQL's own work runs in its server and is not in it)."
