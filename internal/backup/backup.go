// Package backup makes and restores one archive of a site: a consistent
// copy of the SQLite database and every uploaded file of the data
// directory. On PostgreSQL the archive holds the files only and the
// database is dumped with pg_dump.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tribe/internal/community"
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
	// Missing are files the database names that were not in the data
	// directory at all (lost before the backup ran, not replaced during it).
	Missing []string `json:"missing,omitempty"`
}

// Create writes a gzip-compressed tar archive of the site to w: on SQLite a
// snapshot of the database taken with the online backup API, and every other
// file of dataDir (uploaded avatars and the like). The SQLite file itself
// and its journal files are never read directly.
//
// The archive is consistent while members keep changing their avatars: a
// file that vanishes during the walk is left out, and every file the
// snapshot's rows name (community.StoredFiles) is in the archive, taken
// from where a replaced avatar waits for an hour before it is deleted
// (community.ReplacedAvatarDir) when it is no longer in service. Those
// waiting files are otherwise left out on SQLite; on PostgreSQL, whose
// database is dumped apart, they are all carried under their own names, so
// a dump taken within the hour before finds every file it names. Each
// entry is copied aside before it is archived, so a file changing while it
// is read cannot break the archive.
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

	var named []string
	snapshot := ""
	if db.Dialect == store.SQLite {
		snapshot = filepath.Join(tmp, databaseName)
		if err := db.BackupSQLite(ctx, snapshot); err != nil {
			return m, err
		}
		m.Database = true
		if named, err = namedBySnapshot(ctx, snapshot); err != nil {
			return m, err
		}
	}

	avatars := community.AvatarDir(dataDir)
	replaced := community.ReplacedAvatarDir(avatars)
	rels, err := dataFiles(dataDir, replaced)
	if err != nil {
		return m, err
	}
	files := map[string]capturedFile{}
	take := func(rel, src string) error {
		if _, ok := files[rel]; ok {
			return nil
		}
		f, err := capture(src, filepath.Join(tmp, "files", filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		files[rel] = f
		return nil
	}
	for _, rel := range rels {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		err := take(rel, filepath.Join(dataDir, filepath.FromSlash(rel)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) { // one deleted since the walk is not part of the site
			return m, err
		}
	}
	for _, rel := range named {
		name := path.Base(rel)
		err := take(rel, filepath.Join(dataDir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			err = take(rel, filepath.Join(replaced, name))
		}
		if errors.Is(err, fs.ErrNotExist) {
			m.Missing = append(m.Missing, rel)
			continue
		}
		if err != nil {
			return m, err
		}
	}
	if db.Dialect != store.SQLite {
		waiting, _ := os.ReadDir(replaced)
		for _, e := range waiting {
			rel := path.Join("avatars", e.Name())
			if err := take(rel, filepath.Join(replaced, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return m, err
			}
		}
	}
	m.Files = len(files)

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	manifest, _ := json.MarshalIndent(m, "", "  ")
	if err := writeEntry(tw, manifestName, int64(len(manifest)), m.CreatedAt, strings.NewReader(string(manifest))); err != nil {
		return m, err
	}
	if snapshot != "" {
		if err := addFile(tw, databaseName, capturedFile{path: snapshot, mod: m.CreatedAt}); err != nil {
			return m, err
		}
	}
	names := make([]string, 0, len(files))
	for rel := range files {
		names = append(names, rel)
	}
	slices.Sort(names)
	for _, rel := range names {
		if err := addFile(tw, "files/"+rel, files[rel]); err != nil {
			return m, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return m, fmt.Errorf("backup: finish archive: %w", err)
	}
	return m, nil
}

// capturedFile is a file of the data directory copied aside for the archive.
type capturedFile struct {
	path string    // the copy
	mod  time.Time // the original's modification time
}

// namedBySnapshot lists the files the rows of an SQLite snapshot name.
func namedBySnapshot(ctx context.Context, path string) ([]string, error) {
	snap, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, fmt.Errorf("backup: open the snapshot: %w", err)
	}
	defer func() { _ = snap.Close() }()
	named, err := community.StoredFiles(ctx, snap)
	if err != nil {
		return nil, fmt.Errorf("backup: read the snapshot: %w", err)
	}
	return named, nil
}

// capture copies the file src to dst. An error wrapping fs.ErrNotExist
// means src is gone.
func capture(src, dst string) (capturedFile, error) {
	in, err := os.Open(src)
	if err != nil {
		return capturedFile{}, fmt.Errorf("backup: %w", err)
	}
	defer func() { _ = in.Close() }()
	st, err := in.Stat()
	if err != nil {
		return capturedFile{}, fmt.Errorf("backup: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return capturedFile{}, fmt.Errorf("backup: %w", err)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return capturedFile{}, fmt.Errorf("backup: %w", err)
	}
	_, cerr := io.Copy(out, in)
	if err := errors.Join(cerr, out.Close()); err != nil {
		return capturedFile{}, fmt.Errorf("backup: copy %s: %w", src, err)
	}
	return capturedFile{path: dst, mod: st.ModTime()}, nil
}

// dataFiles lists the regular files of dataDir, slash-separated, leaving out
// the SQLite database and its journals (the snapshot stands for them) and
// the directory skip. A directory that vanishes during the walk is skipped.
func dataFiles(dataDir, skip string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != dataDir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() && p == skip {
			return filepath.SkipDir
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

// addFile writes a captured copy, which nothing else changes, as the entry name.
func addFile(tw *tar.Writer, name string, f capturedFile) error {
	in, err := os.Open(f.path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer func() { _ = in.Close() }()
	st, err := in.Stat()
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return writeEntry(tw, name, st.Size(), f.mod, in)
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
// land outside dataDir are refused, and an SQLite database must pass its
// integrity check. A refused restore removes what it unpacked (and dataDir,
// when it made it), so a retry into the same directory works.
func Restore(r io.Reader, dataDir string) (m Manifest, err error) {
	entries, statErr := os.ReadDir(dataDir)
	if statErr == nil && len(entries) > 0 {
		return m, fmt.Errorf("restore: %s is not empty; restore into a new, empty data directory", dataDir)
	}
	existed := statErr == nil
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return m, fmt.Errorf("restore: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, removeUnpacked(dataDir, existed))
		}
	}()
	if m, err = unpack(r, dataDir); err != nil {
		return m, err
	}
	if m.Database {
		res, err := store.IntegrityCheck(context.Background(), store.SQLitePath(dataDir))
		if err != nil || res != "ok" {
			return m, fmt.Errorf("restore: the restored database fails its integrity check: %s %v", res, err)
		}
	}
	return m, nil
}

// removeUnpacked empties dataDir after a refused restore, or removes it when
// the restore made it. It was empty before, so all it holds was unpacked.
func removeUnpacked(dataDir string, existed bool) error {
	if !existed {
		if err := os.RemoveAll(dataDir); err != nil {
			return fmt.Errorf("restore: remove what was unpacked: %w", err)
		}
		return nil
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		return fmt.Errorf("restore: remove what was unpacked: %w", err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dataDir, e.Name())); err != nil {
			return fmt.Errorf("restore: remove what was unpacked: %w", err)
		}
	}
	return nil
}

// unpack writes the archive's entries into dataDir.
func unpack(r io.Reader, dataDir string) (Manifest, error) {
	var m Manifest
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
