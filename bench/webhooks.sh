#!/usr/bin/env bash
# Billing throughput: signed Stripe webhook events applied per second on
# SQLite and PostgreSQL, and checkout creation latency against stripe-mock.
# Arguments go to the program, e.g. bench/webhooks.sh -events 5000 -engines sqlite
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-stripe-mock.sh >/dev/null
exec go run ./bench/webhooks "$@"
