#!/usr/bin/env bash
# Runs the test suites in order, stops at the first failing one with a clear
# message, and prints each suite's counts. `run-tests.sh lint` runs only lint.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/tribe-tests.XXXXXX")
summary=()
total_pass=0 total_fail=0 total_skip=0

strip() { sed -e 's/\x1b\[[0-9;]*[a-zA-Z]//g' "$1"; }
record() { # suite passed failed skipped
  summary+=("$(printf '%-10s %4d passed, %d failed, %d skipped' "$1:" "$2" "$3" "$4")")
  total_pass=$((total_pass + $2)) total_fail=$((total_fail + $3)) total_skip=$((total_skip + $4))
}
finish() {
  echo
  echo "== summary =="
  printf '%s\n' "${summary[@]}"
  echo "tests: $total_pass passed, $total_fail failed, $total_skip skipped"
}
fail() { # suite message
  echo
  echo "FAILED: $1 — $2 (full log: $logs/$1.log)" >&2
  finish
  exit 1
}
num() { local n; n=$(grep -oE "$1" | grep -oE '[0-9]+' | tail -n1); echo "${n:-0}"; }

run_lint() {
  echo "== lint =="
  {
    unformatted=$(gofmt -l cmd internal content)
    if [ -n "$unformatted" ]; then echo "gofmt: these files need formatting:"; echo "$unformatted"; exit 1; fi
    go vet ./... && go tool staticcheck ./... && scripts/api-types.sh check && (cd web && npm run --silent lint)
  } > "$logs/lint.log" 2>&1
  local rc=$?
  cat "$logs/lint.log"
  [ $rc -eq 0 ] || fail lint "gofmt, go vet, staticcheck, stale generated API types, biome or tsc reported problems"
  summary+=("lint:      clean (gofmt, go vet, staticcheck, generated API types, Biome, tsc)")
}

# The Go suite and the web units share no state, so `all` runs them side by side: each writes its
# log and exit code, and reports once both are done, in a fixed order.
start_go() { go test -count=1 -race -timeout 15m -v ./... > "$logs/go.log" 2>&1; echo $? > "$logs/go.rc"; }
start_web() { (cd web && npx vitest run) > "$logs/web.log" 2>&1; echo $? > "$logs/web.rc"; }

run_go() {
  echo "== go (SQLite and PostgreSQL) =="
  local rc
  rc=$(cat "$logs/go.rc" 2>/dev/null || echo 1)
  grep -E '^(ok|FAIL|---|panic:|\s+--- FAIL)|\.go:[0-9]+:' "$logs/go.log" | grep -v -- '--- PASS' | grep -v -- '--- SKIP' || true
  local p f s
  p=$(grep -cE '^\s*--- PASS:' "$logs/go.log") f=$(grep -cE '^\s*--- FAIL:' "$logs/go.log") s=$(grep -cE '^\s*--- SKIP:' "$logs/go.log")
  record go "$p" "$f" "$s"
  if [ "$s" -gt 0 ]; then echo "note: $s Go tests skipped (PostgreSQL unreachable? CI=true makes that a failure)"; fi
  [ $rc -eq 0 ] || fail go "go test failed"
}

run_web() {
  echo "== web units (Vitest) =="
  local rc
  rc=$(cat "$logs/web.rc" 2>/dev/null || echo 1)
  strip "$logs/web.log" | tail -n 15
  local out p f s
  out=$(strip "$logs/web.log" | grep -E '^\s*Tests\s')
  p=$(echo "$out" | num '[0-9]+ passed') f=$(echo "$out" | num '[0-9]+ failed') s=$(echo "$out" | num '[0-9]+ skipped')
  record web "$p" "$f" "$s"
  [ $rc -eq 0 ] || fail web "Vitest failed"
  [ "$p" -gt 0 ] || fail web "Vitest ran no test"
}

run_e2e() {
  echo "== browser end-to-end (Playwright, system Chromium) =="
  (cd web && TRIBE_BIN="$PWD/../bin/tribe" npx playwright test) > "$logs/e2e.log" 2>&1
  local rc=$?
  strip "$logs/e2e.log" | tail -n 40
  local out p f s
  out=$(strip "$logs/e2e.log")
  p=$(echo "$out" | num '^\s*[0-9]+ passed') f=$(echo "$out" | num '^\s*[0-9]+ failed') s=$(echo "$out" | num '^\s*[0-9]+ skipped')
  record e2e "$p" "$f" "$s"
  [ $rc -eq 0 ] || fail e2e "Playwright failed"
  [ "$p" -gt 0 ] || fail e2e "Playwright ran no test"
}

case "${1:-all}" in
  lint) run_lint ;;
  all)
    run_lint
    echo "== go and web units, side by side =="
    start_go & start_web & wait
    run_go; run_web; run_e2e ;;
  *) echo "usage: $0 [lint|all]" >&2; exit 2 ;;
esac
finish
rm -rf "$logs"
