// Package contenttest gives tests their own copy of the site content, the way
// an owner starts a TRIBE_CONTENT_DIR, to edit without touching the defaults.
package contenttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	contentfiles "tribe/content"
)

// Copy writes the embedded content into a fresh directory and returns it.
func Copy(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(contentfiles.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(contentfiles.FS(), p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy content: %v", err)
	}
	return dir
}
