#!/usr/bin/env bash
# The load mix: many anonymous visitors on pages, the public API, search and
# MCP (bench/loadmix/main.go), against bin/tribe on SQLite and then on
# PostgreSQL, each with a fresh database seeded from the content at start.
# Prints requests/s, p50/p99 and errors (overall and per kind) and the
# server's memory: its peak resident size (VmHWM) and its size at the end.
# Needs a built bin/tribe and, for PostgreSQL, createdb/dropdb reaching
# $PGURL (default postgres://postgres@127.0.0.1:5432).
# Usage: bench/loadmix.sh [duration, default 30s] [connections, default 64] [engines, default "sqlite postgres"]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-30s}" conns="${2:-64}" engines="${3:-sqlite postgres}"
pgurl="${PGURL:-postgres://postgres@127.0.0.1:5432}"
tribe="${TRIBE_BIN:-bin/tribe}"
[ -x "$tribe" ] || make build
work=$(mktemp -d)
go build -o "$work/loadmix" ./bench/loadmix
pid="" db=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  [ -n "$db" ] && dropdb --if-exists --maintenance-db="$pgurl/postgres" "$db" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
mem() { awk -v k="$1" '$1 == k":" { printf "%.0f MB", $2 / 1024 }' "/proc/$pid/status"; }

for engine in $engines; do
  url=""
  if [ "$engine" = postgres ]; then
    db="loadmix_$$"
    createdb --maintenance-db="$pgurl/postgres" "$db"
    url="$pgurl/$db?sslmode=disable"
  fi
  port=$(free_port)
  DATABASE_URL="$url" TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/$engine" \
    TRIBE_TRUSTED_PROXIES=127.0.0.1 "$tribe" serve 2>"$work/$engine.log" &
  pid=$!
  for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
  echo "## $engine: $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), bin/tribe $(git rev-parse --short HEAD)"
  "$work/loadmix" -url "http://127.0.0.1:$port" -c "$conns" -d "$dur"
  echo "server memory: peak $(mem VmHWM), at the end $(mem VmRSS); load average after $(cut -d' ' -f1-3 /proc/loadavg)"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  pid=""
  if [ -n "$db" ]; then dropdb --maintenance-db="$pgurl/postgres" "$db"; db=""; fi
done
