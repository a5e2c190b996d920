package ical

import (
	"strings"
	"testing"
	"time"
)

// Long lines fold at 75 octets without splitting a UTF-8 sequence, and
// unfolding gives back the line.
func TestFoldKeepsLinesShortAndRunesWhole(t *testing.T) {
	var w Writer
	value := strings.Repeat("é🚀a", 60)
	w.Line("DESCRIPTION", value)
	out := string(w.Bytes())
	if !strings.HasSuffix(out, "\r\n") {
		t.Fatal("no CRLF at the end")
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
		if len(l) > 75 {
			t.Fatalf("line of %d octets: %q", len(l), l)
		}
		if strings.ToValidUTF8(l, "?") != l {
			t.Fatalf("a rune was split: %q", l)
		}
	}
	if got := strings.ReplaceAll(out, "\r\n ", ""); got != "DESCRIPTION:"+value+"\r\n" {
		t.Fatalf("unfolded %q", got)
	}
}

func TestTextParamAndTimes(t *testing.T) {
	if got := Text("a,b;c\\d\r\ne\x07f"); got != `a\,b\;c\\d\ne`+"f" {
		t.Errorf("Text = %q", got)
	}
	for in, want := range map[string]string{"Ada": "Ada", "Lovelace, Ada": `"Lovelace, Ada"`, `say "hi"`: "say ^'hi^'", "a:b": `"a:b"`} {
		if got := Param(in); got != want {
			t.Errorf("Param(%q) = %q, want %q", in, got, want)
		}
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	if got := UTC(time.Date(2026, 3, 29, 3, 0, 0, 0, paris)); got != "20260329T010000Z" {
		t.Errorf("UTC = %s", got)
	}
	if UIDDomain("https://ruv.io/x") != "ruv.io" || UIDDomain("") != "tribe" {
		t.Error("UIDDomain")
	}
	if MailTo("ada@example.com") != "mailto:ada@example.com" {
		t.Error("MailTo")
	}
}

// A byte-order mark before BEGIN:VCALENDAR (some exporters write one) is
// not part of the line; RFC 6868 carets in parameters are decoded; an END
// naming no open component closes the innermost, so what follows is read.
func TestReadSkipsBOMDecodesCaretsAndRecoversFromStrayEnd(t *testing.T) {
	data := "\ufeffBEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:t\r\nEND:VTOOD\r\nBEGIN:VEVENT\r\nATTENDEE;CN=\"Ada ^'A^' L\":mailto:a@x\r\n" +
		"X-APPLE-BROKEN;NOEQUALS:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	cal, sk, err := Read([]byte(data), Limits{MaxDepth: 4, MaxComponents: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Components) != 2 || cal.Components[1].Name != "VEVENT" {
		t.Fatalf("components %+v", cal.Components)
	}
	ev := cal.Components[1]
	if got := ev.Prop("ATTENDEE").Param("CN"); got != `Ada "A" L` {
		t.Errorf("CN %q", got)
	}
	if sk.BadLines != 1 || len(ev.BadNames) != 1 || ev.BadNames[0] != "X-APPLE-BROKEN" {
		t.Errorf("bad lines %d, names %q", sk.BadLines, ev.BadNames)
	}
}

// Every Windows zone id of the table maps to a zone Go's database knows,
// and the common ones to the zone CLDR names.
func TestWindowsZonesLoad(t *testing.T) {
	if len(windowsZones) < 139 {
		t.Errorf("%d Windows zones, want the ~140 of CLDR's 001 territory", len(windowsZones))
	}
	for id, name := range windowsZones {
		if _, err := time.LoadLocation(name); err != nil {
			t.Errorf("%s → %s: %v", id, name, err)
		}
	}
	for id, want := range map[string]string{"W. Europe Standard Time": "Europe/Berlin", "pacific standard time": "America/Los_Angeles",
		"GMT Standard Time": "Europe/London", "India Standard Time": "Asia/Calcutta", "AUS Eastern Standard Time": "Australia/Sydney"} {
		if got, ok := WindowsZone(id); !ok || got != want {
			t.Errorf("WindowsZone(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
}
