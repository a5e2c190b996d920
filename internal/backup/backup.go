// Package backup makes and restores one archive of a site: a consistent
// copy of the SQLite database and every uploaded file, from the data
// directory or streamed from the bucket the files live in. On PostgreSQL
// the archive holds the files only and the database is dumped with
// pg_dump. Every entry's SHA-256 is in the archive's last entry,
// SHA256SUMS, which a restore checks (and `sha256sum -c` reads).
package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tribe/internal/community"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// manifestName is the archive's first entry: what it holds.
const manifestName = "backup.json"

// databaseName is the SQLite copy inside the archive.
const databaseName = "tribe.db"

// sumsName is the archive's last entry: the SHA-256 of every other entry
// but the manifest, one "HEX  NAME" line each, as sha256sum writes them.
const sumsName = "SHA256SUMS"

// format is the archive format Create writes: 2 added SHA256SUMS. A
// restore reads 1 and 2 and refuses a newer one.
const format = 2

// The largest entries a restore accepts: an archive claiming more is
// damaged or hostile, and is refused before anything is read from it.
const (
	maxDatabase = 64 << 30 // the SQLite copy
	maxFile     = 5 << 30  // one uploaded file: more than the site takes in one upload
	maxSums     = 16 << 20 // SHA256SUMS: about 150,000 lines
)

// Manifest describes an archive.
type Manifest struct {
	Format        int       `json:"format"`
	CreatedAt     time.Time `json:"created_at"`
	Engine        string    `json:"engine"`
	SchemaVersion int       `json:"schema_version"`
	Database      bool      `json:"database"` // the archive holds the SQLite database
	Files         int       `json:"files"`
	// FilesFrom names the bucket the files were streamed from, when they
	// were (CreateFromBucket); empty when they came from the data directory.
	FilesFrom string `json:"files_from,omitempty"`
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
	return create(ctx, db, dataDir, nil, w)
}

// CreateFromBucket is Create for a site whose uploads live in a bucket
// (TRIBE_STORAGE_URL): the archive holds the bucket's objects, streamed
// into it one after the other (not copied aside, so neither memory nor
// disk grows with them), in place of the data directory's upload folders,
// and under the same names, so either kind of archive restores into either
// kind of site. The same rules keep it consistent: every object the
// snapshot's rows name is in it, taken from the replaced avatars' folder
// when it was replaced meanwhile. An object deleted from both places while
// the backup runs fails it, to be run again, rather than leave a file out.
func CreateFromBucket(ctx context.Context, db *store.DB, dataDir string, files storage.Store, w io.Writer) (Manifest, error) {
	return create(ctx, db, dataDir, files, w)
}

func create(ctx context.Context, db *store.DB, dataDir string, bucket storage.Store, w io.Writer) (Manifest, error) {
	m := Manifest{Format: format, CreatedAt: time.Now().UTC(), Engine: string(db.Dialect)}
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
	if bucket != nil {
		// The bucket holds the uploads; what the data directory may still
		// hold of them (copies left by tribe storage migrate) is not the site's.
		rels = slices.DeleteFunc(rels, func(rel string) bool { return strings.HasPrefix(rel, community.AvatarKeyPrefix) })
		m.FilesFrom = bucket.Name()
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
	var objects []object
	if bucket != nil {
		if objects, m.Missing, err = bucketFiles(ctx, bucket, named, db.Dialect != store.SQLite); err != nil {
			return m, err
		}
		named = nil
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
	if db.Dialect != store.SQLite && bucket == nil {
		waiting, _ := os.ReadDir(replaced)
		for _, e := range waiting {
			rel := path.Join("avatars", e.Name())
			if err := take(rel, filepath.Join(replaced, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return m, err
			}
		}
	}
	m.Files = len(files) + len(objects)

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	manifest, _ := json.MarshalIndent(m, "", "  ")
	if err := writeEntry(tw, manifestName, int64(len(manifest)), m.CreatedAt, strings.NewReader(string(manifest))); err != nil {
		return m, err
	}
	var sums checksums
	if snapshot != "" {
		if err := addFile(tw, &sums, databaseName, capturedFile{path: snapshot, mod: m.CreatedAt}); err != nil {
			return m, err
		}
	}
	names := make([]string, 0, len(files))
	for rel := range files {
		names = append(names, rel)
	}
	slices.Sort(names)
	for _, rel := range names {
		if err := addFile(tw, &sums, "files/"+rel, files[rel]); err != nil {
			return m, err
		}
	}
	for _, o := range objects {
		if err := addObject(ctx, tw, &sums, bucket, o); err != nil {
			return m, err
		}
	}
	list := sums.b.String()
	if err := writeEntry(tw, sumsName, int64(len(list)), m.CreatedAt, strings.NewReader(list)); err != nil {
		return m, err
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
		if !storage.ValidKey(rel) { // an upload in progress, or no name the site writes
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

// object is a bucket's object as the archive carries it: under rel, read
// from key (a replaced avatar's waiting place, or rel itself).
type object struct{ rel, key string }

// bucketFiles lists what the archive takes from the bucket: every avatar in
// service; each one the snapshot names (named) but which was replaced
// since, from where it waits; and with carryWaiting (PostgreSQL, whose dump
// is taken apart) every waiting one under its own name. missing are the
// named ones found nowhere.
func bucketFiles(ctx context.Context, b storage.Store, named []string, carryWaiting bool) (objects []object, missing []string, err error) {
	take := map[string]string{} // rel -> key
	waiting := map[string]string{}
	err = b.List(ctx, community.AvatarKeyPrefix, func(i storage.Info) error {
		switch {
		case strings.HasPrefix(i.Key, community.ReplacedAvatarKeyPrefix) && !strings.Contains(strings.TrimPrefix(i.Key, community.ReplacedAvatarKeyPrefix), "/"):
			waiting[community.AvatarKeyPrefix+path.Base(i.Key)] = i.Key
		case storage.InFolder(i.Key): // no other folder out of service is the site's
		default:
			take[i.Key] = i.Key
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("backup: list %s: %w", b.Name(), err)
	}
	for _, rel := range named {
		if _, ok := take[rel]; ok {
			continue
		}
		if key, ok := waiting[rel]; ok {
			take[rel] = key
			continue
		}
		missing = append(missing, rel)
	}
	if carryWaiting {
		for rel, key := range waiting {
			if _, ok := take[rel]; !ok {
				take[rel] = key
			}
		}
	}
	for rel, key := range take {
		objects = append(objects, object{rel: rel, key: key})
	}
	slices.SortFunc(objects, func(a, b object) int { return strings.Compare(a.rel, b.rel) })
	return objects, missing, nil
}

// addObject streams one object of the bucket into the archive. An avatar
// replaced since the listing is read from where it now waits.
func addObject(ctx context.Context, tw *tar.Writer, sums *checksums, b storage.Store, o object) error {
	f, info, err := b.Open(ctx, o.key)
	if errors.Is(err, storage.ErrNotFound) && o.key == o.rel && strings.HasPrefix(o.rel, community.AvatarKeyPrefix) {
		f, info, err = b.Open(ctx, community.ReplacedAvatarKeyPrefix+path.Base(o.rel))
	}
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("backup: %s was deleted from %s while the backup ran; run it again", o.key, b.Name())
	}
	if err != nil {
		return fmt.Errorf("backup: read %s: %w", o.key, err)
	}
	defer func() { _ = f.Close() }()
	return sums.entry(tw, "files/"+o.rel, info.Size, info.ModTime, storage.ReaderWithContext(ctx, f))
}

// checksums collects the SHA256SUMS lines of the entries written.
type checksums struct{ b strings.Builder }

// entry writes an entry and notes its SHA-256.
func (s *checksums) entry(tw *tar.Writer, name string, size int64, mod time.Time, r io.Reader) error {
	h := sha256.New()
	if err := writeEntry(tw, name, size, mod, io.TeeReader(r, h)); err != nil {
		return err
	}
	fmt.Fprintf(&s.b, "%x  %s\n", h.Sum(nil), name)
	return nil
}

// addFile writes a captured copy, which nothing else changes, as the entry name.
func addFile(tw *tar.Writer, sums *checksums, name string, f capturedFile) error {
	in, err := os.Open(f.path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer func() { _ = in.Close() }()
	st, err := in.Stat()
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return sums.entry(tw, name, st.Size(), f.mod, in)
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
// empty or missing, so a restore never mixes two sites (RestoreWith, with
// the files into the data directory).
func Restore(r io.Reader, dataDir string) (Manifest, error) {
	return RestoreWith(context.Background(), r, dataDir, RestoreOptions{})
}

// RestoreOptions say where a restore puts the archive's uploaded files.
type RestoreOptions struct {
	// Files, when not nil, is the bucket the site keeps its uploads in
	// (TRIBE_STORAGE_URL): the archive's uploads are stored there instead
	// of in the data directory. It must hold none yet.
	Files storage.Store
}

// RestoreWith unpacks an archive made by Create or CreateFromBucket into
// dataDir, which must be empty or missing, and the uploaded files into
// o.Files when set, which must hold none, so a restore never mixes two
// sites. Entries that would land outside dataDir or the bucket's folders,
// entries larger than any the site makes, and entries whose SHA-256 is not
// the one SHA256SUMS gives are refused, and an SQLite database must pass
// its integrity check. A refused restore removes what it unpacked (and
// dataDir, when it made it) and the objects it stored, so a retry works.
func RestoreWith(ctx context.Context, r io.Reader, dataDir string, o RestoreOptions) (m Manifest, err error) {
	entries, statErr := os.ReadDir(dataDir)
	if statErr == nil && len(entries) > 0 {
		return m, fmt.Errorf("restore: %s is not empty; restore into a new, empty data directory", dataDir)
	}
	existed := statErr == nil
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return m, fmt.Errorf("restore: %w", err)
	}
	u := &unpacker{ctx: ctx, dataDir: dataDir, bucket: o.Files, seen: map[string]string{}, dest: map[string]bool{}}
	defer func() {
		if err != nil {
			err = errors.Join(err, u.removeStored(), removeUnpacked(dataDir, existed))
		}
	}()
	if m, err = u.unpack(r); err != nil {
		return m, err
	}
	if m.Database {
		res, err := store.IntegrityCheck(ctx, store.SQLitePath(dataDir))
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

// unpacker writes an archive's entries where they belong and remembers
// what it stored in the bucket, to take it back when the restore fails.
type unpacker struct {
	ctx     context.Context
	dataDir string
	bucket  storage.Store
	checked bool              // the bucket was found empty
	stored  []string          // keys stored in the bucket
	seen    map[string]string // entry name -> its SHA-256, hex
	dest    map[string]bool   // where the entries went, relative to dataDir or the bucket
}

// removeStored deletes the objects a refused restore stored, even when the
// restore was refused because its context ended.
func (u *unpacker) removeStored() error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(u.ctx), time.Minute)
	defer cancel()
	var errs []error
	for _, key := range u.stored {
		if err := u.bucket.Delete(ctx, key); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("restore: remove what was stored in %s: %w", u.bucket.Name(), err)
	}
	return nil
}

// unpack writes the archive's entries and checks them against SHA256SUMS.
func (u *unpacker) unpack(r io.Reader) (Manifest, error) {
	var m Manifest
	gz, err := gzip.NewReader(r)
	if err != nil {
		return m, fmt.Errorf("restore: not a backup archive: %w", err)
	}
	tr := tar.NewReader(gz)
	first := true
	var sums map[string]string
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
			if m.Format > format {
				return m, fmt.Errorf("restore: the archive is of format %d, made by a newer tribe; restore it with that version", m.Format)
			}
			first = false
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return m, fmt.Errorf("restore: unexpected entry %q", h.Name)
		}
		var rel string
		limit := int64(maxFile)
		switch {
		case h.Name == sumsName:
			limit = maxSums
		case h.Name == databaseName:
			rel, limit = databaseName, maxDatabase
		case strings.HasPrefix(h.Name, "files/"):
			rel = path.Clean(strings.TrimPrefix(h.Name, "files/"))
			if !fs.ValidPath(rel) || !storage.ValidKey(rel) || rel == databaseName || strings.HasPrefix(rel, databaseName+"-") {
				return m, fmt.Errorf("restore: refusing entry %q: it would land outside the data directory or the bucket's folders", h.Name)
			}
		default:
			return m, fmt.Errorf("restore: unexpected entry %q", h.Name)
		}
		if h.Size < 0 || h.Size > limit {
			return m, fmt.Errorf("restore: refusing entry %q: it claims %d bytes, more than the %d any such entry of a backup holds", h.Name, h.Size, limit)
		}
		if sums != nil {
			return m, fmt.Errorf("restore: refusing entry %q: it follows %s, so nothing vouches for it", h.Name, sumsName)
		}
		if _, dup := u.seen[h.Name]; dup || (rel != "" && u.dest[rel]) {
			return m, fmt.Errorf("restore: refusing entry %q: the archive holds it twice", h.Name)
		}
		if h.Name == sumsName {
			if sums, err = readSums(tr); err != nil {
				return m, err
			}
			continue
		}
		hash := sha256.New()
		body := io.TeeReader(tr, hash)
		if u.bucket != nil && rel != databaseName && strings.HasPrefix(rel, community.AvatarKeyPrefix) {
			err = u.store(rel, body, h.Size)
		} else {
			err = writeFile(filepath.Join(u.dataDir, filepath.FromSlash(rel)), body)
		}
		if err != nil {
			return m, err
		}
		u.seen[h.Name] = hex.EncodeToString(hash.Sum(nil))
		u.dest[rel] = true
	}
	if first {
		return m, errors.New("restore: the archive is empty")
	}
	if sums == nil {
		if m.Format >= 2 {
			return m, fmt.Errorf("restore: the archive ends before %s: it is incomplete", sumsName)
		}
		return m, nil // format 1 had no checksums
	}
	for name, sum := range u.seen {
		want, ok := sums[name]
		if !ok {
			return m, fmt.Errorf("restore: %s has no checksum in %s", name, sumsName)
		}
		if want != sum {
			return m, fmt.Errorf("restore: %s does not match its checksum in %s: the archive is damaged", name, sumsName)
		}
	}
	for name := range sums {
		if _, ok := u.seen[name]; !ok {
			return m, fmt.Errorf("restore: %s lists %s, which the archive lacks: it is incomplete", sumsName, name)
		}
	}
	return m, nil
}

// store puts one uploaded file into the bucket, which is checked to hold
// no uploads before the first.
func (u *unpacker) store(key string, r io.Reader, size int64) error {
	if !u.checked {
		errFound := errors.New("found")
		var found string
		err := u.bucket.List(u.ctx, community.AvatarKeyPrefix, func(i storage.Info) error {
			found = i.Key
			return errFound
		})
		if errors.Is(err, errFound) {
			return fmt.Errorf("restore: %s already holds uploaded files (%s, …); restore into a new, empty bucket", u.bucket.Name(), found)
		}
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		u.checked = true
	}
	u.stored = append(u.stored, key)
	if err := u.bucket.Put(u.ctx, key, r, size, mime.TypeByExtension(path.Ext(key))); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// readSums parses SHA256SUMS: "HEX  NAME" lines.
func readSums(r io.Reader) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if b, err := hex.DecodeString(sum); !ok || err != nil || len(b) != sha256.Size || name == "" {
			return nil, fmt.Errorf("restore: %s has a malformed line %q", sumsName, sc.Text())
		}
		sums[name] = strings.ToLower(sum)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("restore: read %s: %w", sumsName, err)
	}
	return sums, nil
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
