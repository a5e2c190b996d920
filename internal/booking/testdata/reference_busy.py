#!/usr/bin/python3
"""The reference busy time of a calendar file, for TestBusyMatchesReference.

Usage: reference_busy.py FILE ZONE FROM UNTIL   (FROM and UNTIL in RFC 3339, UTC)

Expands every event of FILE between FROM and UNTIL with python-recurring-ical-events (the
expansion calendar software is compared against) and prints the busy intervals as the booking
service defines them, one "START END" line each in UTC, merged and sorted: an event blocks unless it
is TRANSP:TRANSPARENT or STATUS:CANCELLED; a date (all-day) value and a floating time are read in the
calendar's zone (X-WR-TIMEZONE, else ZONE).
"""
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events


def main():
    path, zone_name, lo, hi = sys.argv[1:5]
    with open(path, "rb") as f:
        cal = icalendar.Calendar.from_ical(f.read())
    wr = cal.get("X-WR-TIMEZONE")
    zone = ZoneInfo(str(wr)) if wr else ZoneInfo(zone_name)
    lo = datetime.fromisoformat(lo.replace("Z", "+00:00"))
    hi = datetime.fromisoformat(hi.replace("Z", "+00:00"))

    def instant(v):
        if isinstance(v, datetime):
            if v.tzinfo is None:
                v = v.replace(tzinfo=zone)
            return v.astimezone(timezone.utc)
        if isinstance(v, date):
            return datetime(v.year, v.month, v.day, tzinfo=zone).astimezone(timezone.utc)
        raise ValueError("not a time: %r" % (v,))

    spans = []
    for ev in recurring_ical_events.of(cal).between(lo, hi):
        if str(ev.get("TRANSP", "OPAQUE")).upper() == "TRANSPARENT":
            continue
        if str(ev.get("STATUS", "")).upper() == "CANCELLED":
            continue
        start = ev["DTSTART"].dt
        if "DTEND" in ev:
            end = ev["DTEND"].dt
        elif "DURATION" in ev:
            end = start + ev["DURATION"].dt
        elif isinstance(start, datetime):
            end = start
        else:
            end = start + timedelta(days=1)
        a, b = instant(start), instant(end)
        if b <= a or b <= lo or a >= hi:
            continue
        spans.append((a, b))
    spans.sort()
    merged = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    for a, b in merged:
        print(a.strftime("%Y-%m-%dT%H:%M:%SZ"), b.strftime("%Y-%m-%dT%H:%M:%SZ"))


if __name__ == "__main__":
    main()
