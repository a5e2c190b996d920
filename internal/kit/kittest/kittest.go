// Package kittest reads starter-kit archives in tests.
package kittest

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// Unpack opens a ZIP and reads every entry to its end, which is where
// archive/zip checks the CRC-32 and size, so a corrupt entry fails the test.
// It returns the entry names in archive order and their contents.
func Unpack(t testing.TB, b []byte) (names []string, files map[string][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a ZIP archive: %v", err)
	}
	files = map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("open %s: %v", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatalf("read %s (CRC or size check): %v", f.Name, err)
		}
		names = append(names, f.Name)
		files[f.Name] = data
	}
	return names, files
}
