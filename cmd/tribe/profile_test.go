package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestCPUProfileOnlyWhenAsked(t *testing.T) {
	stop, err := profileCPU(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	stop()

	path := filepath.Join(t.TempDir(), "cpu.pprof")
	stop, err = profileCPU(envOf(cpuProfileEnv, path))
	if err != nil {
		t.Fatal(err)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A profile is gzip-compressed protobuf.
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("not a profile: % x", b[:min(len(b), 8)])
	}

	if _, err := profileCPU(envOf(cpuProfileEnv, filepath.Join(t.TempDir(), "missing", "cpu.pprof"))); err == nil {
		t.Fatal("a profile in a missing directory was accepted")
	}
}

// envOf is an environment holding one variable.
func envOf(name, value string) func(string) string {
	return func(k string) string {
		if k == name {
			return value
		}
		return ""
	}
}
