# Shared by bench/two-instances.sh and bench/storage.sh: a versitygw bucket, a PostgreSQL schema,
# instances of the site on them, nginx in front, and wrk's numbers. Everything runs on loopback
# under a temporary folder and is stopped and removed when the calling script exits.
# Needs versitygw (scripts/ensure-s3.sh), PostgreSQL at TEST_DATABASE_URL (default
# postgres://postgres@127.0.0.1:5432/test) and, for nginx, scripts/ensure-nginx.sh.
tribe="${TRIBE_BIN:-bin/tribe}"
[ -x "$tribe" ] || make build
work=$(mktemp -d)
chmod 755 "$work" # nginx's workers run as another user
pids=()
pg_base="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}"
schema=""
cleanup() {
  [ -f "$work/nginx/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
  [ ${#pids[@]} = 0 ] || kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
  [ -z "$schema" ] || psql -q "$pg_base" -c "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 150); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done; echo "$1 did not come up" >&2; exit 1; }
ensure_wrk() {
  command -v wrk >/dev/null && return 0
  echo "installing wrk (apt-get install wrk)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 wrk >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 wrk >/dev/null; }
}

# start_s3: versitygw over $work/s3 and a bucket; sets s3_env (the site's variables for it).
start_s3() {
  local gw port
  gw=$(command -v versitygw || echo "$(go env GOPATH | cut -d: -f1)/bin/versitygw")
  [ -x "$gw" ] || { echo "versitygw is missing: run scripts/ensure-s3.sh" >&2; exit 1; }
  go build -o "$work/s3tool" ./bench/s3tool
  port=$(free_port) s3_endpoint="127.0.0.1:$port"
  mkdir -p "$work/s3"
  "$gw" --access tribetest --secret tribetest-secret-key --region us-east-1 --port "$s3_endpoint" --quiet posix "$work/s3" >"$work/versitygw.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://$s3_endpoint/" && break; sleep 0.1; done
  "$work/s3tool" mkbucket "$s3_endpoint" tribe-bench
  s3_env=("TRIBE_STORAGE_URL=s3://tribe-bench?endpoint=http://$s3_endpoint&region=us-east-1&path_style=1"
    TRIBE_S3_ACCESS_KEY_ID=tribetest TRIBE_S3_SECRET_ACCESS_KEY=tribetest-secret-key)
}

# start_postgres: a schema of its own; sets db_url.
start_postgres() {
  schema="bench_$$_$RANDOM"
  psql -q "$pg_base" -c "CREATE SCHEMA $schema" >/dev/null
  db_url="$pg_base&search_path=$schema"
}

# start_instance NAME VAR=VALUE...: the site on a free port with those variables; sets addr to
# its host:port (not printed: a $(…) subshell would lose the process id). Its log is $work/NAME.log.
start_instance() {
  local name=$1 port; shift
  port=$(free_port)
  mkdir -p "$work/$name"
  env TRIBE_ADDR="127.0.0.1:$port" TRIBE_DATA_DIR="$work/$name" TRIBE_TRUSTED_PROXIES=127.0.0.1 "$@" \
    ${pin_server:-} "$tribe" serve >"$work/$name.log" 2>&1 &
  pids+=($!)
  wait_up "http://127.0.0.1:$port/readyz"
  addr="127.0.0.1:$port"
}

# start_nginx PORT=UPSTREAM[,UPSTREAM...]...: one nginx, a round-robin server on each port.
start_nginx() {
  local servers="" spec port ups n=0
  for spec in "$@"; do
    port=${spec%%=*} ups=${spec#*=} n=$((n + 1))
    servers+="    upstream u$n {"$'\n'
    for u in ${ups//,/ }; do servers+="        server $u;"$'\n'; done
    servers+="        keepalive 32;"$'\n'"    }"$'\n'
    servers+="    server { listen 127.0.0.1:$port; client_max_body_size 6m; location / { proxy_pass http://u$n;
        proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_set_header Host \$host;
        proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for; proxy_set_header X-Forwarded-Proto \$scheme;
        proxy_buffering off; proxy_read_timeout 1h; } }"$'\n'
  done
  mkdir -p "$work/nginx"
  cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi; uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
$servers}
CONF
  local nginx
  nginx=$(command -v nginx || echo /usr/sbin/nginx)
  ${pin_server:-} "$nginx" -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
  pids+=($!)
}

# member_avatar BASE: signs a member up through BASE, uploads web/public/icon-192.png as the
# avatar, and prints the avatar's path.
member_avatar() {
  local base=$1 jar="$work/cookies.$RANDOM"
  curl -fs -c "$jar" -H 'Content-Type: application/json' \
    -d '{"full_name":"Bench","email":"bench'$RANDOM'@example.com","password":"bench password"}' "$base/api/auth/signup" >/dev/null
  curl -fs -b "$jar" -F "avatar=@web/public/icon-192.png;type=image/png" "$base/api/profile/avatar" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["profile"]["avatar_url"])'
}

# load URL: wrk for $dur with $conns connections; prints "REQ_PER_S P99_MS NON_2XX".
load() {
  ${pin_load:-} wrk -t2 -c"$conns" -d"$dur" --latency "$1" | awk '
    /Requests\/sec:/ { rps = $2 }
    $1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; p99 = v }
    / Non-2xx or 3xx responses:/ { bad = $NF }
    END { printf "%.0f %.2f %d\n", rps, p99, bad }'
}
