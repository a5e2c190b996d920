package backup

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// writeArchive writes a well-formed archive whose one file entry is named name.
func writeArchive(t *testing.T, w io.Writer, name string) {
	t.Helper()
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	manifest, _ := json.Marshal(Manifest{Format: 1})
	for _, e := range []struct{ name, body string }{{manifestName, string(manifest)}, {name, "x"}} {
		if err := writeEntry(tw, e.name, int64(len(e.body)), time.Now(), strings.NewReader(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	_ = tw.Close()
	_ = gz.Close()
}
