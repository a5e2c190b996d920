package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Fatalf("GC percent %d, want %d", got, serveGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != serveMemoryLimit {
		t.Fatalf("memory limit %d, want %d", got, serveMemoryLimit)
	}

	// The operator's settings win: the runtime already applied them.
	tuneGC(func(name string) string { return map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}[name] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC set, yet the GC percent became %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Fatalf("GOMEMLIMIT set, yet the memory limit became %d", got)
	}
}
