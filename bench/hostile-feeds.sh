#!/usr/bin/env bash
# The worst owner calendars we could build within the caps of a feed (5 MB
# body, 12 levels of nesting, 50,000 components, 20,000 busy intervals,
# 6,000 instances of a series in the window, 50 VTIMEZONE definitions, a
# 3-second processor budget): each is read and expanded over the 60-day
# window plus a week in a process of its own (TestHostileFeedBench with
# HOSTILE_FEED=name), which prints its time, its peak Go heap and what the
# calendar's status would say; /usr/bin/time adds the process's peak
# resident memory. Prints one line per feed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp "${TMPDIR:-/tmp}/booking-test.XXXXXX")
trap 'rm -f "$bin"' EXIT
go test -c -o "$bin" ./internal/booking
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for feed in minutely-200 never-matching-rules series-under-cap nested-begin many-components zone-changes many-zones exdates-and-overrides; do
  out=$(HOSTILE_FEED=$feed /usr/bin/time -f 'maxrss=%MkB' "$bin" -test.run '^TestHostileFeedBench$' -test.v 2>&1)
  line=$(grep -o 'hostile: .*' <<<"$out" | sed -E 's/ notes=.*//')
  rss=$(grep -o 'maxrss=[0-9]*kB' <<<"$out")
  notes=$(grep -o 'notes=.*' <<<"$out" | cut -c1-160)
  echo "$line process_$rss"
  echo "    $notes"
done
