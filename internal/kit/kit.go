// Package kit builds the client-side MCP tools starter kit as a ZIP archive:
// the kit's TypeScript sources and README plus a snapshot of the site's
// resource files and search index, so the download is a real archive (not a
// text file named .zip) and its data matches what the site serves.
package kit

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"time"

	kitfiles "tribe/content/kit"
	"tribe/internal/content"
)

// Root is the folder every entry sits in, so unpacking never scatters files
// into the user's current directory.
const Root = "client-side-mcp-tools/"

// FileName is the name the archive is offered under.
const FileName = "client-side-mcp-tools.zip"

// Build returns the archive for the site's current content. Entries are
// sorted and stamped with now's UTC day, so the same content built on the
// same day gives the same bytes (and ETag).
func Build(site *content.Site, now time.Time) ([]byte, error) {
	files, err := entries(site)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)

	day := now.UTC().Truncate(24 * time.Hour)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		h := &zip.FileHeader{Name: Root + name, Method: zip.Deflate, Modified: day}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, fmt.Errorf("starter kit: add %s: %w", name, err)
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, fmt.Errorf("starter kit: write %s: %w", name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("starter kit: finish archive: %w", err)
	}
	return buf.Bytes(), nil
}

// entries maps each archive path (below Root) to its bytes.
func entries(site *content.Site) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(kitfiles.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(kitfiles.FS(), p)
		files[p] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("starter kit: read sources: %w", err)
	}

	// The resource files are the bytes the site serves, so the snapshot in
	// the kit never differs from /content/* and /mcp/*.
	for _, name := range append(content.PublicFiles(), content.ResourcesFile) {
		raw, ok := site.Raw(name)
		if !ok {
			return nil, fmt.Errorf("starter kit: content file %s was not loaded", name)
		}
		files["resources/"+path.Base(name)] = raw
	}
	files["resources/"+path.Base(content.SearchIndexPath)] = site.IndexJSON()
	return files, nil
}
