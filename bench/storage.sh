#!/usr/bin/env bash
# Files on local disk against files in S3 (versitygw on this machine), in one run:
#  1. an avatar read through the site (GET /avatars/…, one instance, no proxy): requests per second
#     and the 99th percentile, the data directory against the bucket;
#  2. a large upload to the bucket through the site's storage interface (storage.S3.Put, by
#     bench/s3tool), its length announced and not (a multipart upload in 16 MiB parts): time, the
#     peak Go heap and the peak resident set, at two sizes, to show memory does not grow with the file.
# Slow (it writes gigabytes) and not a test: it runs only with STORAGE_BENCH=1, so CI never starts it.
# Needs versitygw, PostgreSQL is not used; installs wrk. See bench/cluster.sh.
# Usage: STORAGE_BENCH=1 bench/storage.sh [duration, default 10s] [connections, default 32] [big size, default 1073741824]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${STORAGE_BENCH:-}" != 1 ]; then
  echo "bench/storage.sh writes gigabytes; run it with STORAGE_BENCH=1" >&2
  exit 0
fi
dur="${1:-10s}" conns="${2:-32}" big="${3:-1073741824}"
# shellcheck source=cluster.sh
source bench/cluster.sh
ensure_wrk
start_s3
start_instance local
disk=$addr
start_instance s3 "${s3_env[@]}"
bucket=$addr
echo "avatar through the site, wrk -t2 -c$conns -d$dur, $(nproc) cores"
printf '%-8s %10s %10s %8s\n' files req/s p99_ms non-2xx
for setup in "disk:$disk" "s3:$bucket"; do
  path=$(member_avatar "http://${setup#*:}")
  curl -fs -o /dev/null "http://${setup#*:}$path" # warm
  read -r rps p99 bad < <(load "http://${setup#*:}$path")
  printf '%-8s %10s %10s %8s\n' "${setup%%:*}" "$rps" "$p99" "$bad"
done
echo
echo "upload to the bucket through storage.S3.Put"
for size in $((big / 8)) "$big"; do
  for known in known unknown; do
    "$work/s3tool" put "$s3_endpoint" tribe-bench "$size" "$known"
  done
done
