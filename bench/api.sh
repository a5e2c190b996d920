#!/usr/bin/env bash
# Members API against PocketBase, side by side in one run: our
# GET /api/sessions with 20 live sessions, signed in, on SQLite, and
# PocketBase listing 20 records through its public list rule.
# Needs wrk (apt-get install wrk), a built bin/tribe, and PocketBase:
#   go install github.com/pocketbase/pocketbase/examples/base@v0.39.11
# Usage: bench/api.sh [duration, default 5s] [connections, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
dur="${1:-5s}" conns="${2:-16}"
pb="${POCKETBASE:-$(go env GOPATH)/bin/base}"
command -v wrk >/dev/null || { echo "install wrk first: apt-get install wrk" >&2; exit 1; }
[ -x "$pb" ] || { echo "install PocketBase first: go install github.com/pocketbase/pocketbase/examples/base@v0.39.11" >&2; exit 1; }
tribe="${TRIBE_BIN:-bin/tribe}"
[ -x "$tribe" ] || make build
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "$1 did not come up" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# --- ours: an admin signs up, confirms by the development mailbox, adds 20 sessions.
port=$(free_port) base="http://127.0.0.1:$port"
TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/tribe" TRIBE_ADMIN_EMAILS=bench@example.com \
  "$tribe" serve 2>/dev/null &
pids+=($!)
wait_up "$base/readyz"
cookie=$(curl -fs -D - -o /dev/null -H 'Content-Type: application/json' \
  -d '{"full_name":"Bench","email":"bench@example.com","password":"benchmark password"}' "$base/api/auth/signup" |
  grep -i '^set-cookie: tribe_session=' | sed -E 's/^[^:]+: ([^;]+);.*/\1/')
link=$(curl -fs "$base/api/dev/mail" | json "[m for m in d['messages'] if 'confirm' in m['text']][0]['text']" |
  grep -oE 'http://[^ ]+/auth/confirm\?token=[A-Za-z0-9_-]+' | head -n1)
curl -fs -o /dev/null -H "Cookie: $cookie" "$link" # confirms only in the signed-in browser
for i in $(seq -w 1 20); do
  curl -fs -o /dev/null -H "Cookie: $cookie" -H 'Content-Type: application/json' "$base/api/admin/sessions" -d \
    "{\"title\":\"Session $i\",\"description\":\"Building agents, part $i\",\"tags\":[\"agents\",\"memory\"],\"session_date\":\"2099-01-$i\",\"session_time\":\"17:00\",\"duration\":\"2 hours\",\"timezone\":\"America/New_York\",\"max_attendees\":40,\"zoom_meeting_id\":\"123 456 $i\",\"zoom_password\":\"pw$i\",\"zoom_join_url\":\"https://zoom.us/j/123456\",\"meeting_link\":\"\"}"
done
n=$(curl -fs -H "Cookie: $cookie" "$base/api/sessions" | json "len(d['sessions'])")
[ "$n" = 20 ] || { echo "expected 20 sessions, got $n" >&2; exit 1; }

# --- PocketBase: a public "sessions" collection with 20 records of the same fields.
pbport=$(free_port) pbbase="http://127.0.0.1:$pbport"
"$pb" superuser upsert bench@example.com 'benchmark password' --dir "$work/pb" >/dev/null
"$pb" serve --http "127.0.0.1:$pbport" --dir "$work/pb" >/dev/null 2>&1 &
pids+=($!)
wait_up "$pbbase/api/health"
token=$(curl -fs -H 'Content-Type: application/json' -d '{"identity":"bench@example.com","password":"benchmark password"}' \
  "$pbbase/api/collections/_superusers/auth-with-password" | json "d['token']")
curl -fs -o /dev/null -H "Authorization: $token" -H 'Content-Type: application/json' "$pbbase/api/collections" -d '{
  "name":"sessions","type":"base","listRule":"","viewRule":"",
  "fields":[{"name":"title","type":"text"},{"name":"description","type":"text"},{"name":"tags","type":"json"},
    {"name":"session_date","type":"text"},{"name":"session_time","type":"text"},{"name":"duration","type":"text"},
    {"name":"timezone","type":"text"},{"name":"max_attendees","type":"number"},{"name":"zoom_meeting_id","type":"text"},
    {"name":"zoom_password","type":"text"},{"name":"zoom_join_url","type":"text"},{"name":"meeting_link","type":"text"}]}'
for i in $(seq -w 1 20); do
  curl -fs -o /dev/null -H "Authorization: $token" -H 'Content-Type: application/json' "$pbbase/api/collections/sessions/records" -d \
    "{\"title\":\"Session $i\",\"description\":\"Building agents, part $i\",\"tags\":[\"agents\",\"memory\"],\"session_date\":\"2099-01-$i\",\"session_time\":\"17:00\",\"duration\":\"2 hours\",\"timezone\":\"America/New_York\",\"max_attendees\":40,\"zoom_meeting_id\":\"123 456 $i\",\"zoom_password\":\"pw$i\",\"zoom_join_url\":\"https://zoom.us/j/123456\",\"meeting_link\":\"\"}"
done
n=$(curl -fs "$pbbase/api/collections/sessions/records?perPage=20" | json "len(d['items'])")
[ "$n" = 20 ] || { echo "PocketBase: expected 20 records, got $n" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, bin/tribe $("$tribe" version | cut -d' ' -f2), PocketBase $("$pb" --version | awk '{print $NF}'), wrk -t1 -c$conns -d$dur"
run() { # name url [header]
  printf '\n## %s\n' "$1"
  wrk -t1 -c"$conns" -d"$dur" --latency ${3:+-H "$3"} "$2" | grep -E 'Requests/sec|Latency|50%|99%|Non-2xx|errors'
}
run "ours: GET /api/sessions (20 sessions, signed in)" "$base/api/sessions" "Cookie: $cookie"
run "PocketBase: GET /api/collections/sessions/records?perPage=20 (public list rule)" "$pbbase/api/collections/sessions/records?perPage=20"
