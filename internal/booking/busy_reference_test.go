package booking

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The busy time of calendar files in the style each client exports
// (testdata/feeds: Google Calendar, Outlook/Exchange with Windows zone
// names, iCloud, Thunderbird, and daylight-saving edges in four zones),
// compared interval by interval with the reference expansion of
// python-recurring-ical-events (testdata/reference_busy.py, Debian's
// python3-recurring-ical-events, which .ci/run installs).

// referencePython is the interpreter that has the reference package.
const referencePython = "/usr/bin/python3"

// referenceDisagrees lists the intervals where the reference is wrong by
// RFC 5545 and we follow the RFC, by file: the reference's interval ("" for
// one it leaves out) and ours. Both are faults of the version Debian ships
// (2.0.1, on icalendar 4.0.3), which a calendar client does not share:
//   - it places a time that occurs twice (the hour an autumn change
//     repeats) at its second occurrence, in a named zone (pytz's default)
//     and in a VTIMEZONE of the feed alike; RFC 5545 §3.3.5: "the DATE-TIME
//     value refers to the first occurrence of the referenced time". Here
//     01:15 and 01:30 on 1 November in Toronto's rules, merged into one
//     interval;
//   - it compares UNTIL with the instances in the offset of DTSTART, so a
//     series begun in winter loses its last instance when UNTIL names it
//     exactly in summer; RFC 5545 §3.3.10: UNTIL "bounds the recurrence
//     rule in an inclusive manner" and, synchronized with it, "becomes the
//     last instance". Here the monthly review of 11 August at 10:00 EDT.
var referenceDisagrees = map[string][][2]string{
	"dst-edges.ics": {
		{"2026-11-01T06:15:00Z 2026-11-01T07:00:00Z", "2026-11-01T05:15:00Z 2026-11-01T06:00:00Z"},
	},
	"outlook.ics": {
		{"", "2026-08-11T14:00:00Z 2026-08-11T15:30:00Z"},
	},
}

func TestBusyMatchesReference(t *testing.T) {
	if err := exec.Command(referencePython, "-c", "import recurring_ical_events").Run(); err != nil {
		msg := "python3-recurring-ical-events is not installed (apt-get install python3-recurring-ical-events)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	lo := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	hi := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	files, err := filepath.Glob("testdata/feeds/*.ics")
	if err != nil || len(files) < 5 {
		t.Fatalf("feeds: %v %v", files, err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			busy, rep, err := expandBusy(data, toronto, lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Skipped != 0 || len(rep.Notes) != 0 {
				t.Errorf("read with skips: %d skipped, notes %q", rep.Skipped, rep.Notes)
			}
			var out, stderr bytes.Buffer
			cmd := exec.Command(referencePython, "testdata/reference_busy.py", file, "America/Toronto",
				lo.Format(time.RFC3339), hi.Format(time.RFC3339))
			cmd.Stdout, cmd.Stderr = &out, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("reference: %v\n%s", err, stderr.String())
			}
			want := strings.Fields(strings.ReplaceAll(out.String(), "\n", " \n"))
			var wantLines []string
			for i := 0; i+1 < len(want); i += 2 {
				wantLines = append(wantLines, want[i]+" "+want[i+1])
			}
			for _, d := range referenceDisagrees[name] {
				if d[0] == "" {
					wantLines = append(wantLines, d[1])
					continue
				}
				found := false
				for i, l := range wantLines {
					if l == d[0] {
						wantLines[i], found = d[1], true
					}
				}
				if !found {
					t.Errorf("the reference no longer gives %s: drop it from referenceDisagrees", d[0])
				}
			}
			var gotLines []string
			for _, s := range busy {
				gotLines = append(gotLines, s.from.UTC().Format(time.RFC3339)+" "+s.until.UTC().Format(time.RFC3339))
			}
			if len(wantLines) < 5 {
				t.Fatalf("the reference gave only %d intervals", len(wantLines))
			}
			missing, extra := diffLines(wantLines, gotLines)
			for _, l := range missing {
				t.Errorf("busy in the reference, not ours: %s", l)
			}
			for _, l := range extra {
				t.Errorf("busy in ours, not the reference: %s", l)
			}
		})
	}
}

// diffLines returns what is in want and not got, and what is in got and not want.
func diffLines(want, got []string) (missing, extra []string) {
	in := func(list []string) map[string]int {
		m := map[string]int{}
		for _, l := range list {
			m[l]++
		}
		return m
	}
	w, g := in(want), in(got)
	for _, l := range want {
		if g[l] == 0 {
			missing = append(missing, l)
		} else {
			g[l]--
		}
	}
	g = in(got)
	for _, l := range got {
		if w[l] == 0 {
			extra = append(extra, l)
		} else {
			w[l]--
		}
	}
	return missing, extra
}
