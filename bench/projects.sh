#!/usr/bin/env bash
# The projects board and the member directory for a full tribe on SQLite:
# 50 subscribers listed in the directory, 150 projects with 10 reactions and
# 2 comments each, through the whole handler. Runs the Go benchmark
# BenchmarkProjectsBoardAndDirectory three times and puts its numbers at the
# top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test PROJECTS_BENCH '^Benchmark' -- go test ./internal/web -run '^$' -bench 'ProjectsBoardAndDirectory' -benchtime 200x -count 3
bench_record "Projects board and member directory (\`bench/projects.sh\`)" \
  "GET /api/projects (150 projects, each with its counts and the caller's reaction) and GET /api/members/directory without and with a search (50 members, each member's level computed from their rows on every request), signed in, SQLite, one request at a time; ns/op is the mean time per request."
