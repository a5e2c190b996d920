# Shared by the bench scripts: starts bin/tribe on a free loopback port with a
# fresh SQLite data directory, waits until it is ready, and sets $base. The
# server and its data are removed when the calling script exits.
[ -x bin/tribe ] || make build
bench_data=$(mktemp -d)
bench_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TRIBE_ADDR="127.0.0.1:$bench_port" TRIBE_DATA_DIR="$bench_data" bin/tribe serve 2>/dev/null &
bench_pid=$!
trap 'kill $bench_pid 2>/dev/null; wait $bench_pid 2>/dev/null; rm -rf "$bench_data"' EXIT
base="http://127.0.0.1:$bench_port"
for _ in $(seq 1 50); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
