#!/usr/bin/env bash
# The owner's calendars as busy time: expanding a 500-event calendar with 50
# recurring series (EXDATEs and moved occurrences, a VTIMEZONE) over the
# 60-day window (200 runs), a whole refresh from a local HTTP server (fetch,
# expand, store; 20 runs) and free slots with its busy times (1,000 calls),
# on SQLite and PostgreSQL (TEST_DATABASE_URL). Runs the Go test
# TestCalendarBench and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=(go test ./internal/booking -run '^TestCalendarBench$' -count=1 -v -timeout 10m)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(CALENDAR_BENCH=1 "${cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
lines=$(grep -E 'expand:|refresh:|slots:' <<<"$out" | sed -E 's/^ +calendars_bench_test\.go:[0-9]+: //')
echo "$lines"
block=$(
  echo "## The owner's calendars as busy time (\`bench/calendars.sh\`)"
  echo
  echo "Command: \`CALENDAR_BENCH=1 ${cmd[*]}\`. \`expand\`: reading and expanding one"
  echo "calendar of 500 events (450 single, some all-day, free or cancelled; 50 weekly, fortnightly, monthly and daily"
  echo "series, each with an EXDATE and a moved occurrence) over the 60-day window plus a week, in process. \`refresh\`: the"
  echo "whole periodic work for it, from a local HTTP server (claim, fetch, expand, replace the busy rows). \`slots\`:"
  echo "\`booking.Service.Slots\` for a 30-minute session over 60 days seen from Europe/Paris with those busy rows stored."
  echo
  echo '```'
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$lines"
  echo '```'
)
# Newest first: the block goes before the first section of RESULTS.md.
BLOCK="$block" python3 - <<'PY'
import os
p = "bench/RESULTS.md"
s = open(p).read()
i = s.index("\n## ")
open(p, "w").write(s[:i] + "\n" + os.environ["BLOCK"] + "\n" + s[i:])
PY
