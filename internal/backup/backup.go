// Package backup makes and restores one archive of a site: a consistent
// copy of the SQLite database and every uploaded file of the data
// directory. On PostgreSQL the archive holds the files only and the
// database is dumped with pg_dump.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"tribe/internal/store"
)

// manifestName is the archive's first entry: what it holds.
const manifestName = "backup.json"

// databaseName is the SQLite copy inside the archive.
const databaseName = "tribe.db"

// Manifest describes an archive.
type Manifest struct {
	Format        int       `json:"format"`
	CreatedAt     time.Time `json:"created_at"`
	Engine        string    `json:"engine"`
	SchemaVersion int       `json:"schema_version"`
	Database      bool      `json:"database"` // the archive holds the SQLite database
	Files         int       `json:"files"`
}

// Create writes a gzip-compressed tar archive of the site to w: on SQLite a
// snapshot of the database taken with the online backup API, and every other
// file of dataDir (uploaded avatars and the like). The SQLite file itself
// and its journal files are never read directly.
func Create(ctx context.Context, db *store.DB, dataDir string, w io.Writer) (Manifest, error) {
	m := Manifest{Format: 1, CreatedAt: time.Now().UTC(), Engine: string(db.Dialect)}
	ver, err := db.SchemaVersion(ctx)
	if err != nil {
		return m, err
	}
	m.SchemaVersion = ver
	tmp, err := os.MkdirTemp("", "tribe-backup-*")
	if err != nil {
		return m, fmt.Errorf("backup: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	snapshot := ""
	if db.Dialect == store.SQLite {
		snapshot = filepath.Join(tmp, databaseName)
		if err := db.BackupSQLite(ctx, snapshot); err != nil {
			return m, err
		}
		m.Database = true
	}
	files, err := dataFiles(dataDir)
	if err != nil {
		return m, err
	}
	m.Files = len(files)

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	manifest, _ := json.MarshalIndent(m, "", "  ")
	if err := writeEntry(tw, manifestName, int64(len(manifest)), m.CreatedAt, strings.NewReader(string(manifest))); err != nil {
		return m, err
	}
	if snapshot != "" {
		if err := addFile(tw, databaseName, snapshot); err != nil {
			return m, err
		}
	}
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		if err := addFile(tw, "files/"+rel, filepath.Join(dataDir, filepath.FromSlash(rel))); err != nil {
			return m, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return m, fmt.Errorf("backup: finish archive: %w", err)
	}
	return m, nil
}

// dataFiles lists the regular files of dataDir, slash-separated, leaving out
// the SQLite database and its journals (the snapshot stands for them).
func dataFiles(dataDir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dataDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == databaseName || strings.HasPrefix(rel, databaseName+"-") {
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("backup: list %s: %w", dataDir, err)
	}
	return out, nil
}

func addFile(tw *tar.Writer, name, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return writeEntry(tw, name, st.Size(), st.ModTime(), f)
}

func writeEntry(tw *tar.Writer, name string, size int64, mod time.Time, r io.Reader) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("backup: write %s: %w", name, err)
	}
	if _, err := io.CopyN(tw, r, size); err != nil {
		return fmt.Errorf("backup: write %s: %w", name, err)
	}
	return nil
}

// Restore unpacks an archive made by Create into dataDir, which must be
// empty or missing, so a restore never mixes two sites. Entries that would
// land outside dataDir are refused.
func Restore(r io.Reader, dataDir string) (Manifest, error) {
	var m Manifest
	if entries, err := os.ReadDir(dataDir); err == nil && len(entries) > 0 {
		return m, fmt.Errorf("restore: %s is not empty; restore into a new, empty data directory", dataDir)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return m, fmt.Errorf("restore: %w", err)
	}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return m, fmt.Errorf("restore: not a backup archive: %w", err)
	}
	tr := tar.NewReader(gz)
	first := true
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, fmt.Errorf("restore: read archive: %w", err)
		}
		if first {
			if h.Name != manifestName {
				return m, fmt.Errorf("restore: not a backup archive (it starts with %q, not %s)", h.Name, manifestName)
			}
			if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(&m); err != nil {
				return m, fmt.Errorf("restore: read %s: %w", manifestName, err)
			}
			first = false
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return m, fmt.Errorf("restore: unexpected entry %q", h.Name)
		}
		var rel string
		switch {
		case h.Name == databaseName:
			rel = databaseName
		case strings.HasPrefix(h.Name, "files/"):
			rel = path.Clean(strings.TrimPrefix(h.Name, "files/"))
			if !fs.ValidPath(rel) || rel == databaseName || strings.HasPrefix(rel, databaseName+"-") {
				return m, fmt.Errorf("restore: refusing entry %q", h.Name)
			}
		default:
			return m, fmt.Errorf("restore: unexpected entry %q", h.Name)
		}
		if err := writeFile(filepath.Join(dataDir, filepath.FromSlash(rel)), tr); err != nil {
			return m, err
		}
	}
	if first {
		return m, errors.New("restore: the archive is empty")
	}
	return m, nil
}

func writeFile(dst string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if _, err := io.Copy(f, r); err != nil {
		_ = f.Close()
		return fmt.Errorf("restore: write %s: %w", dst, err)
	}
	return f.Close()
}
