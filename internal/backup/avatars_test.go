package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/community"
	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// avatarPNG is a small opaque picture, a different one for each n.
func avatarPNG(t *testing.T, n int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(n + i)
	}
	for y := range 16 {
		for x := range 16 {
			c := img.RGBAAt(x, y)
			c.A = 255
			img.SetRGBA(x, y, color.RGBA{c.R, c.G, c.B, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// addMember adds a user with a profile.
func addMember(t *testing.T, db *store.DB, i int) string {
	t.Helper()
	id := store.NewID()
	email := fmt.Sprintf("m%d@example.com", i)
	err := db.Tx(context.Background(), func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, id, email); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, 'M')`, id, email)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// changeAvatars keeps replacing the avatars of members (each upload deletes
// the previous file) until stop is closed; it returns how many it made.
func changeAvatars(t *testing.T, db *store.DB, dataDir string, members []string, stop <-chan struct{}) func() int {
	var n atomic.Int64
	var wg sync.WaitGroup
	pics := [][]byte{avatarPNG(t, 1), avatarPNG(t, 2), avatarPNG(t, 3)}
	for w, id := range members {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := community.SetAvatar(context.Background(), db, storage.NewLocal(dataDir), id, bytes.NewReader(pics[(i+w)%len(pics)])); err != nil {
					t.Errorf("upload: %v", err)
					return
				}
				n.Add(1)
			}
		})
	}
	return func() int { wg.Wait(); return int(n.Load()) }
}

// TestBackupWhileAvatarsChange: in 12 backups during 200 avatar uploads, 9
// failed with "no such file or directory" (a file listed, then replaced)
// and one restored with profiles pointing at avatar files missing from the
// archive (the snapshot was taken before the files were read, and the
// files it named were deleted meanwhile). Every backup now succeeds, and
// every avatar its database names is in it.
func TestBackupWhileAvatarsChange(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db := storetest.Open(t, "", dataDir)
	var members []string
	for i := range 4 {
		members = append(members, addMember(t, db, i))
	}
	stop := make(chan struct{})
	uploads := changeAvatars(t, db, dataDir, members, stop)
	const backups = 12
	archives := make([][]byte, 0, backups)
	for i := range backups {
		var archive bytes.Buffer
		m, err := Create(ctx, db, dataDir, &archive)
		if err != nil || len(m.Missing) > 0 {
			close(stop)
			uploads()
			t.Fatalf("backup %d while avatars change: %v, missing %v", i+1, err, m.Missing)
		}
		archives = append(archives, archive.Bytes())
	}
	close(stop)
	t.Logf("%d backups during %d avatar uploads", backups, uploads())

	for i, archive := range archives {
		restored := filepath.Join(t.TempDir(), "site")
		if _, err := Restore(bytes.NewReader(archive), restored); err != nil {
			t.Fatalf("restore %d: %v", i+1, err)
		}
		rdb := storetest.Open(t, "", restored)
		rows, err := rdb.Read.QueryContext(ctx, `SELECT avatar_url FROM profiles WHERE avatar_url IS NOT NULL`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var url string
			if err := rows.Scan(&url); err != nil {
				t.Fatal(err)
			}
			path, _, ok := community.AvatarFile(community.AvatarDir(restored), strings.TrimPrefix(url, community.AvatarURLPrefix))
			if _, err := os.Stat(path); !ok || err != nil {
				t.Errorf("backup %d: a profile points at %s, which is not in the archive", i+1, url)
			}
		}
		_ = rows.Close()
		_ = rdb.Close()
	}
}

// archived lists the file entries of an archive.
func archived(t *testing.T, archive []byte) map[string]bool {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]bool{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = true
	}
}

// TestBackupOnPostgresWhileAvatarsChange: on PostgreSQL the archive holds
// the files and the database is dumped apart, just before. A file replaced
// while they are read is not an error, and every avatar the database named
// just before the backup (what the dump holds) is in the archive.
func TestBackupOnPostgresWhileAvatarsChange(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db := storetest.Open(t, storetest.NewPostgresSchema(t), dataDir)
	var members []string
	for i := range 4 {
		members = append(members, addMember(t, db, i))
	}
	stop := make(chan struct{})
	uploads := changeAvatars(t, db, dataDir, members, stop)
	defer func() {
		close(stop)
		t.Logf("%d avatar uploads", uploads())
	}()
	for i := range 12 {
		dumped, err := community.StoredFiles(ctx, db.Read) // the dump's view
		if err != nil {
			t.Fatal(err)
		}
		var archive bytes.Buffer
		if _, err := Create(ctx, db, dataDir, &archive); err != nil {
			t.Fatalf("backup %d while avatars change: %v", i+1, err)
		}
		in := archived(t, archive.Bytes())
		for _, rel := range dumped {
			if !in["files/"+rel] {
				t.Errorf("backup %d: the database named %s just before, and the archive lacks it", i+1, rel)
			}
		}
	}
}

// TestRefusedRestoreRemovesWhatItUnpacked: a restore refused half-way left
// its files behind, so a retry into the same directory was refused as "not
// empty". A refused restore now empties the directory (or removes it when
// it made it).
func TestRefusedRestoreRemovesWhatItUnpacked(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db := storetest.Open(t, "", dataDir)
	id := addMember(t, db, 1)
	if _, err := community.SetAvatar(ctx, db, storage.NewLocal(dataDir), id, bytes.NewReader(avatarPNG(t, 1))); err != nil {
		t.Fatal(err)
	}
	var good bytes.Buffer
	if _, err := Create(ctx, db, dataDir, &good); err != nil {
		t.Fatal(err)
	}

	// The good archive with a bad entry at its end, after the database and
	// the avatar were unpacked; and one whose database is not a database.
	var escaping, corrupt bytes.Buffer
	rewrite(t, good.Bytes(), &escaping, func(tw *tar.Writer) {
		if err := writeEntry(tw, "files/../../escape.txt", 1, time.Now(), strings.NewReader("x")); err != nil {
			t.Fatal(err)
		}
	}, nil)
	rewrite(t, good.Bytes(), &corrupt, nil, func(name string, body []byte) []byte {
		if name == databaseName {
			return bytes.Repeat([]byte("not a database "), 512)
		}
		return body
	})

	for _, dir := range []string{filepath.Join(t.TempDir(), "new"), t.TempDir()} {
		for name, bad := range map[string][]byte{"an entry outside the directory": escaping.Bytes(), "a corrupt database": corrupt.Bytes()} {
			if _, err := Restore(bytes.NewReader(bad), dir); err == nil {
				t.Fatalf("%s: restored", name)
			}
			if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
				t.Fatalf("%s: the refused restore left %d entries in %s", name, len(entries), dir)
			}
		}
		m, err := Restore(bytes.NewReader(good.Bytes()), dir)
		if err != nil || !m.Database || m.Files != 1 {
			t.Fatalf("the retry into %s: %+v %v", dir, m, err)
		}
	}
}

// rewrite copies an archive, passing each entry's body through edit (when
// given) and calling extra (when given) before it closes.
func rewrite(t *testing.T, archive []byte, w io.Writer, extra func(*tar.Writer), edit func(name string, body []byte) []byte) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := gzip.NewWriter(w)
	tw := tar.NewWriter(out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		if edit != nil {
			body = edit(h.Name, body)
		}
		if err := writeEntry(tw, h.Name, int64(len(body)), h.ModTime, bytes.NewReader(body)); err != nil {
			t.Fatal(err)
		}
	}
	if extra != nil {
		extra(tw)
	}
	_ = tw.Close()
	_ = out.Close()
}
