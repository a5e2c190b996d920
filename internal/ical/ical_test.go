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
