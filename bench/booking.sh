#!/usr/bin/env bash
# Booking: free slots of a 60-day window with 500 bookings and the live
# sessions in it (1,000 calls, p50/p99), and holds asked for concurrently
# (100 on one slot, 200 on scattered slots: counts and time per hold), on
# SQLite and PostgreSQL (TEST_DATABASE_URL). Runs the Go test
# TestBookingBench and puts its numbers at the top of bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/gotest.sh
bench_go_test BOOKING_BENCH 'slots:|holds:' -- go test ./internal/booking -run '^TestBookingBench$' -count=1 -v -timeout 10m
bench_record "Booking slots and holds (\`bench/booking.sh\`)" \
  "In-process calls to \`booking.Service.Slots\` for a 30-minute session over 60 days seen from Europe/Paris, with 500 confirmed bookings and 9 live sessions in the window (1,000 calls); then \`Book\` from 100 goroutines on one slot and from 200 on 200 different slots, payments on (holds), each run on an empty calendar. per_hold is the run's wall time divided by its requests."
