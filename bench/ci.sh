#!/usr/bin/env bash
# Times CI as a new contributor meets it: a fresh clone of HEAD, `CI=true bash .ci/run`, with empty
# Go build, Go module and npm caches (as on a clean machine; Debian's packages that are installed
# stay installed: apt-get costs about a minute beside the npm and Go installs). Puts the phase table
# and the test counts at the top of bench/RESULTS.md. Usage: bench/ci.sh [--warm] (keep the caches).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/tribe-ci-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/repo"
mkdir -p "$work/shared" # CI lays a copy of shared/ beside the clone
env=()
if [ "${1:-}" != --warm ]; then
  # GOPATH too: the test servers that `go install` put in GOPATH/bin are built again, as on a new machine.
  path=$(echo "$PATH" | tr : '\n' | grep -vxF "$(go env GOPATH)/bin" | paste -sd:)
  env=(PATH="$path" GOPATH="$work/gopath" GOCACHE="$work/gocache" GOMODCACHE="$work/gomod" npm_config_cache="$work/npm" GOFLAGS=-modcacherw)
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
rc=0
(cd "$work/repo" && env "${env[@]}" CI=true bash .ci/run) > "$work/ci.log" 2>&1 || rc=$?
took=$(($(date +%s) - start))
table=$(sed -n '/^== phases/,/^total/p' "$work/ci.log")
counts=$(grep -E '^(lint|go|web|e2e|  go) ' "$work/ci.log" || true)
tests=$(grep -E '^tests: ' "$work/ci.log" | tail -n1)
echo "$table"; echo "$counts"; echo "$tests"; echo "exit $rc after ${took}s"
[ $rc = 0 ] || { tail -n 80 "$work/ci.log"; cp "$work/ci.log" "$root/ci-bench-failed.log"; exit 1; }
section=$(
  echo "## CI on a clean clone: $((took / 60)) min $((took % 60)) s (\`bench/ci.sh ${1:-}\`)"
  echo
  echo "A fresh clone of $(git rev-parse --short HEAD), \`CI=true bash .ci/run\`, $( [ "${1:-}" = --warm ] && echo "warm caches" || echo "empty Go build, Go module and npm caches"); $(nproc) cores; load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)."
  echo
  echo '```'
  echo "$table"
  echo
  echo "$counts"
  echo "$tests"
  echo '```'
  echo
)
{ head -n 4 bench/RESULTS.md; echo "$section"; tail -n +5 bench/RESULTS.md; } > "$work/RESULTS.md"
cp "$work/RESULTS.md" bench/RESULTS.md
