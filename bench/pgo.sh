#!/usr/bin/env bash
# Records cmd/tribe/default.pgo, the CPU profile go build uses for
# profile-guided optimisation of bin/tribe: the load mix (bench/loadmix.sh:
# pages, the public API, search and MCP) on SQLite and on PostgreSQL, each
# profiled by the server itself (TRIBE_CPU_PROFILE), merged into one. Rerun it
# after changes to the request paths; the build picks the file up by itself.
# Needs PostgreSQL as bench/loadmix.sh does.
# Usage: bench/pgo.sh [duration per engine, default 30s]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-30s}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make build >/dev/null
for engine in sqlite postgres; do
  TRIBE_CPU_PROFILE="$work/$engine.pprof" bench/loadmix.sh "$dur" 64 "$engine"
done
go tool pprof -proto "$work/sqlite.pprof" "$work/postgres.pprof" > "$work/merged.pprof"
mv "$work/merged.pprof" cmd/tribe/default.pgo
echo "wrote cmd/tribe/default.pgo ($(wc -c < cmd/tribe/default.pgo) bytes); make build to use it"
