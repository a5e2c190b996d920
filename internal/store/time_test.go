package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzParseStored holds the hand-written reader of stored timestamps to
// time.Parse with the same layout: what it reads, time.Parse reads as the
// same instant, and it reads every text that layout writes (time.Parse also
// takes looser forms, such as a one-digit hour; Scan falls back to it).
func FuzzParseStored(f *testing.F) {
	for _, s := range []string{
		"2026-11-24T02:29:27.123Z", "2024-02-29T23:59:59.999Z", "2025-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z",
		"2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-01-01 00:00:00.000Z",
		"2026-01-01T00:00:00.000+", "+026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.00aZ", "0000-01-01T00:00:00.000Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseStored(s)
		want, err := time.Parse(timeLayout, s)
		if ok && err != nil {
			t.Fatalf("%q: hand reader read %s, time.Parse refused: %v", s, got, err)
		}
		if !ok && err == nil && want.Format(timeLayout) == s {
			t.Fatalf("%q: time.Parse read %s, hand reader refused", s, want)
		}
		if ok && !got.Equal(want) {
			t.Fatalf("%q: hand reader %s, time.Parse %s", s, got, want)
		}
	})
}

func TestStoredTimesReadBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		in := At(time.Unix(r.Int64N(1<<33), r.Int64N(1e9)))
		v, _ := in.Value()
		var out Time
		if err := out.Scan(v); err != nil || !out.Equal(in.Time) {
			t.Fatalf("%s read back as %s (%v)", v, out, err)
		}
	}
}
