#!/usr/bin/env bash
# The owner's calendars as busy time: expanding a 500-event calendar with 50
# recurring series (EXDATEs and moved occurrences, a VTIMEZONE) over the
# 60-day window (200 runs), a whole refresh from a local HTTP server (fetch,
# expand, store; 20 runs) and free slots with its busy times (1,000 calls),
# on SQLite and PostgreSQL (TEST_DATABASE_URL). Runs the Go test
# TestCalendarBench and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test CALENDAR_BENCH 'expand:|refresh:|slots:' -- go test ./internal/booking -run '^TestCalendarBench$' -count=1 -v -timeout 10m
bench_record "The owner's calendars as busy time (\`bench/calendars.sh\`)" \
  "\`expand\`: reading and expanding one calendar of 500 events (450 single, some all-day, free or cancelled; 50 weekly, fortnightly, monthly and daily series, each with an EXDATE and a moved occurrence) over the 60-day window plus a week, in process (200 runs). \`refresh\`: the whole periodic work for it from a local HTTP server (claim, fetch, expand, replace the busy rows; 20 runs). \`slots\`: \`booking.Service.Slots\` for a 30-minute session over 60 days seen from Europe/Paris with those busy rows stored (1,000 calls)."
