#!/usr/bin/env bash
# A prerendered page (/about, gzip) served four ways in one run: bin/tribe,
# the smallest Go server writing the same precompressed bytes from memory
# (bench/minimal), the same server sending our response headers too (CSP and
# the other security headers, Etag, Cache-Control, Vary), and nginx with
# gzip_static on the same file.
# Needs wrk and nginx (apt-get install wrk nginx-light) and a built bin/tribe.
# Usage: bench/static.sh [duration, default 5s] [connections, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-5s}" conns="${2:-16}"
command -v wrk >/dev/null || { echo "install wrk first: apt-get install wrk" >&2; exit 1; }
command -v nginx >/dev/null || { echo "install nginx first: apt-get install nginx-light" >&2; exit 1; }
tribe="${TRIBE_BIN:-bin/tribe}"
[ -x "$tribe" ] || make build
work=$(mktemp -d)
chmod 755 "$work" # nginx workers read the page as another user
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 100); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done; echo "$1 did not come up" >&2; exit 1; }

port=$(free_port) ours="http://127.0.0.1:$port/about"
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/data" "$tribe" serve 2>/dev/null &
pids+=($!)
wait_up "$ours"
# The exact bytes our server sends for /about with gzip, as the other two's file.
mkdir -p "$work/www/about"
curl -fs -H 'Accept-Encoding: gzip' "$ours" -o "$work/www/about/index.html.gz" -D "$work/headers.txt"
gunzip -c "$work/www/about/index.html.gz" > "$work/www/about/index.html"
chmod -R a+rX "$work/www"

go build -o "$work/minimal" ./bench/minimal
mport=$(free_port) minimal="http://127.0.0.1:$mport/about"
"$work/minimal" "127.0.0.1:$mport" "$work/www/about/index.html.gz" &
pids+=($!)
wait_up "$minimal"
hport=$(free_port) headers="http://127.0.0.1:$hport/about"
"$work/minimal" "127.0.0.1:$hport" "$work/www/about/index.html.gz" "$work/headers.txt" &
pids+=($!)
wait_up "$headers"

nport=$(free_port) nginxurl="http://127.0.0.1:$nport/about/"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  gzip_static on;
  types { text/html html; }
  server { listen 127.0.0.1:$nport; root $work/www; index index.html; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
wait_up "$nginxurl"

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, bin/tribe $("$tribe" version | cut -d' ' -f2), wrk -t1 -c$conns -d$dur, Accept-Encoding: gzip, $(wc -c < "$work/www/about/index.html.gz") bytes"
for target in "ours $ours" "minimal-go $minimal" "minimal-go-same-headers $headers" "nginx-gzip_static $nginxurl"; do
  set -- $target
  printf '\n## %s\n' "$1"
  wrk -t1 -c"$conns" -d"$dur" --latency -H 'Accept-Encoding: gzip' "$2" | grep -E 'Requests/sec|Latency|50%|99%|Non-2xx|errors'
done
