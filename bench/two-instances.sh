#!/usr/bin/env bash
# Two instances of the site on one PostgreSQL schema and one S3 bucket (versitygw), behind nginx
# round-robin, under load: requests per second and the 99th percentile for a public page (/about,
# prerendered) and an avatar (read from the bucket through the site), through nginx to one instance
# and to both. One nginx serves both setups on two ports, so only the number of instances differs.
# Needs PostgreSQL, versitygw, nginx and a built bin/tribe (see bench/cluster.sh); installs wrk.
# Usage: bench/two-instances.sh [duration, default 10s] [connections, default 32]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-10s}" conns="${2:-32}"
# shellcheck source=cluster.sh
source bench/cluster.sh
ensure_wrk
scripts/ensure-nginx.sh
start_s3
start_postgres
start_instance a DATABASE_URL="$db_url" "${s3_env[@]}"
a=$addr
start_instance b DATABASE_URL="$db_url" "${s3_env[@]}"
b=$addr
one=$(free_port) two=$(free_port)
start_nginx "$one=$a" "$two=$a,$b"
wait_up "http://127.0.0.1:$one/readyz"
wait_up "http://127.0.0.1:$two/readyz"
avatar=$(member_avatar "http://127.0.0.1:$two")
echo "two instances ($a, $b) on PostgreSQL and s3://tribe-bench; wrk -t2 -c$conns -d$dur, $(nproc) cores"
printf '%-8s %-10s %10s %10s %8s\n' target instances req/s p99_ms non-2xx
for target in /about "$avatar"; do
  for setup in "one:$one" "two:$two"; do
    curl -fs -o /dev/null "http://127.0.0.1:${setup#*:}$target" # warm
    read -r rps p99 bad < <(load "http://127.0.0.1:${setup#*:}$target")
    name=page; [ "$target" = /about ] || name=avatar
    printf '%-8s %-10s %10s %10s %8s\n' "$name" "${setup%%:*}" "$rps" "$p99" "$bad"
  done
done
