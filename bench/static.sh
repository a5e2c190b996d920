#!/usr/bin/env bash
# A prerendered page (/about, gzip) served four ways in one run: bin/tribe,
# the smallest Go server writing the same precompressed bytes from memory
# (bench/minimal), the same server sending our response headers too (CSP and
# the other security headers, Etag, Cache-Control, Vary), that one again with
# our server's limits (read timeouts, connection cap: the same job as ours),
# and nginx with gzip_static on the same file.
# Needs wrk and nginx (apt-get install wrk nginx-light) and a built bin/tribe.
# On two or more cores the servers run on core 0 and wrk on core 1 (taskset),
# so each side has one core of its own; the targets are measured in turn
# (after a second of warm-up each), round after round, and the median of the
# rounds is reported with the server's processor time per request (from
# /proc), which a neighbour on the machine disturbs less than requests per
# second.
# Usage: bench/static.sh [duration, default 5s] [connections, default 16] [rounds, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-5s}" conns="${2:-16}" rounds="${3:-5}"
pin_server="" pin_load=""
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then pin_server="taskset -c 0" pin_load="taskset -c 1"; fi
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
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/data" $pin_server "$tribe" serve 2>/dev/null &
pids+=($!)
wait_up "$ours"
# The exact bytes our server sends for /about with gzip, as the other two's file.
mkdir -p "$work/www/about"
curl -fs -H 'Accept-Encoding: gzip' "$ours" -o "$work/www/about/index.html.gz" -D "$work/headers.txt"
gunzip -c "$work/www/about/index.html.gz" > "$work/www/about/index.html"
chmod -R a+rX "$work/www"

go build -o "$work/minimal" ./bench/minimal
mport=$(free_port) minimal="http://127.0.0.1:$mport/about"
$pin_server "$work/minimal" "127.0.0.1:$mport" "$work/www/about/index.html.gz" &
pids+=($!)
wait_up "$minimal"
hport=$(free_port) headers="http://127.0.0.1:$hport/about"
$pin_server "$work/minimal" "127.0.0.1:$hport" "$work/www/about/index.html.gz" "$work/headers.txt" &
pids+=($!)
wait_up "$headers"
jport=$(free_port) samejob="http://127.0.0.1:$jport/about"
$pin_server "$work/minimal" "127.0.0.1:$jport" "$work/www/about/index.html.gz" "$work/headers.txt" limits &
pids+=($!)
wait_up "$samejob"
# The yardstick must send what ours sends, byte for byte but the Date.
same_response() { curl -fsi -H 'Accept-Encoding: gzip' "$1" | grep -av '^Date: '; }
if ! cmp -s <(same_response "$ours") <(same_response "$samejob"); then
  echo "minimal-go-same-job does not send the same response as ours:" >&2
  diff <(same_response "$ours" | sed -n '1,/^\r$/p') <(same_response "$samejob" | sed -n '1,/^\r$/p') >&2
  exit 1
fi

nport=$(free_port) nginxurl="http://127.0.0.1:$nport/about/"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
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
$pin_server nginx -c "$work/nginx.conf" -p "$work"
wait_up "$nginxurl"

nginx_pid() { pgrep -P "$(cat "$work/nginx.pid")" | head -n1; } # the worker does the serving
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
targets=("ours $ours ${pids[0]}" "minimal-go $minimal ${pids[1]}" "minimal-go-same-headers $headers ${pids[2]}" "minimal-go-same-job $samejob ${pids[3]}" "nginx-gzip_static $nginxurl nginx")
declare -A rps cpu p99
# One unmeasured second each first: a server's first requests grow its heap
# and fault its pages in, which a steady state never pays again.
for target in "${targets[@]}"; do
  set -- $target
  $pin_load wrk -t1 -c"$conns" -d1s -H 'Accept-Encoding: gzip' "$2" >/dev/null
done
for _ in $(seq 1 "$rounds"); do
  for target in "${targets[@]}"; do
    set -- $target
    pid=$3
    [ "$pid" = nginx ] && pid=$(nginx_pid)
    before=$(cpu_ticks "$pid")
    out=$($pin_load wrk -t1 -c"$conns" -d"$dur" --latency -H 'Accept-Encoding: gzip' "$2")
    after=$(cpu_ticks "$pid")
    n=$(awk '/requests in/ {print $1}' <<<"$out")
    rps[$1]+=" $(awk '/Requests\/sec/ {printf "%d", $2}' <<<"$out")"
    p99[$1]+=" $(awk '$1 == "99%" {v = $2 + 0; if ($2 ~ /us$/) v /= 1000; else if ($2 ~ /[0-9]s$/) v *= 1000; printf "%.2f", v}' <<<"$out")"
    cpu[$1]+=" $(( (after - before) * 1000000000 / $(getconf CLK_TCK) / n ))"
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores${pin_server:+ (servers on core 0, wrk on core 1)}, bin/tribe $("$tribe" version | cut -d' ' -f2), wrk -t1 -c$conns -d$dur, $rounds rounds, Accept-Encoding: gzip, $(wc -c < "$work/www/about/index.html.gz") bytes"
printf '\n| target | req/s (median) | server CPU per request | p99 (median) | req/s of each round |\n|---|---|---|---|---|\n'
for target in "${targets[@]}"; do
  set -- $target
  printf '| %s | %s | %s µs | %s | %s |\n' "$1" "$(median <<<"${rps[$1]}")" \
    "$(awk '{printf "%.1f", $1 / 1000}' <<<"$(median <<<"${cpu[$1]}")")" "$(median <<<"${p99[$1]}") ms" "${rps[$1]# }"
done
ours_rps=$(median <<<"${rps[ours]}")
for other in minimal-go minimal-go-same-headers minimal-go-same-job nginx-gzip_static; do
  awk -v a="$ours_rps" -v b="$(median <<<"${rps[$other]}")" -v o="$other" 'BEGIN {printf "ours / %s: %.2f\n", o, a / b}'
done
