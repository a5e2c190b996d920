#!/usr/bin/env bash
# Booking: free slots of a 60-day window with 500 bookings and the live
# sessions in it (1,000 calls, p50/p99), and holds asked for concurrently
# (100 on one slot, 200 on scattered slots: counts and time per hold), on
# SQLite and PostgreSQL (TEST_DATABASE_URL). Runs the Go test
# TestBookingBench and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=(go test ./internal/booking -run '^TestBookingBench$' -count=1 -v -timeout 10m)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(BOOKING_BENCH=1 "${cmd[@]}" 2>&1) || { echo "$out"; exit 1; }
lines=$(grep -E 'slots:|holds:' <<<"$out" | sed -E 's/^ +bench_test\.go:[0-9]+: //')
echo "$lines"
block=$(
  echo "## Booking slots and holds (\`bench/booking.sh\`)"
  echo
  echo "Command: \`BOOKING_BENCH=1 ${cmd[*]}\`. In-process calls to \`booking.Service.Slots\` for a 30-minute"
  echo "session over 60 days seen from Europe/Paris, with 500 confirmed bookings and 9 live sessions in the window"
  echo "(1,000 calls); then \`Book\` from 100 goroutines on one slot and from 200 on 200 different slots, payments on"
  echo "(holds), each run on an empty calendar. per_hold is the run's wall time divided by its requests."
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
