package backup

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tribe/internal/community"
	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// objects reads every object of s: key -> SHA-256 (hex).
func objects(t *testing.T, s storage.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	var keys []string
	if err := s.List(ctx, "", func(i storage.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		f, _, err := s.Open(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		out[k] = hex.EncodeToString(h.Sum(nil))
	}
	return out
}

// entries reads an archive: each entry's SHA-256 (hex), the manifest, and
// the SHA256SUMS it ends with, parsed.
func entries(t *testing.T, archive []byte) (got map[string]string, m Manifest, sums map[string]string, last string) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	got, sums = map[string]string{}, map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		last = h.Name
		switch h.Name {
		case manifestName:
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
		case sumsName:
			sc := bufio.NewScanner(bytes.NewReader(body))
			for sc.Scan() {
				sum, name, _ := strings.Cut(sc.Text(), "  ")
				sums[name] = sum
			}
		default:
			s := sha256.Sum256(body)
			got[h.Name] = hex.EncodeToString(s[:])
		}
	}
	return got, m, sums, last
}

// TestBackupWithFilesFromABucketRestoresIntoABucket: on S3, the backup
// streams the bucket's avatars into the archive (a replaced one the
// database still names from where it waits; on PostgreSQL every waiting one
// under its own name), each with its SHA-256 in SHA256SUMS; the archive
// restores into a new, empty bucket (and into a data directory) with every
// object's content intact; a second restore into the now full bucket is
// refused and leaves nothing behind.
func TestBackupWithFilesFromABucketRestoresIntoABucket(t *testing.T) {
	srv := storagetest.StartT(t)
	storetest.EachNamed(t, func(t *testing.T, engine string, db *store.DB) {
		ctx := context.Background()
		dataDir := t.TempDir()
		src := srv.Store(t)
		one, two := addMember(t, db, 1), addMember(t, db, 2)
		if _, err := community.SetAvatar(ctx, db, src, one, bytes.NewReader(avatarPNG(t, 1))); err != nil {
			t.Fatal(err)
		}
		first, err := community.SetAvatar(ctx, db, src, two, bytes.NewReader(avatarPNG(t, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := community.SetAvatar(ctx, db, src, two, bytes.NewReader(avatarPNG(t, 3))); err != nil {
			t.Fatal(err)
		}
		replaced := "avatars/" + strings.TrimPrefix(*first.AvatarURL, community.AvatarURLPrefix)
		// A file of several parts' worth in service (no profile names it),
		// and a copy tribe storage migrate left in the data directory,
		// which is not the site's any more.
		big := make([]byte, 20<<20+12345)
		_, _ = rand.Read(big)
		bigKey := "avatars/0123456789abcdef0123456789abcdef.jpg"
		if err := src.Put(ctx, bigKey, bytes.NewReader(big), -1, "image/jpeg"); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dataDir, "avatars"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dataDir, "avatars", "fedcba9876543210fedcba9876543210.png"), []byte("stale"), 0o600); err != nil {
			t.Fatal(err)
		}

		var archive bytes.Buffer
		m, err := CreateFromBucket(ctx, db, dataDir, src, &archive)
		if err != nil {
			t.Fatal(err)
		}
		in := objects(t, src)
		got, manifest, sums, last := entries(t, archive.Bytes())
		want := map[string]string{}
		for key, sum := range in {
			if !strings.HasPrefix(key, community.ReplacedAvatarKeyPrefix) {
				want["files/"+key] = sum
			}
		}
		if engine == "postgres" { // the dump is taken apart: the waiting one comes along under its own name
			want["files/"+replaced] = in[community.ReplacedAvatarKeyPrefix+strings.TrimPrefix(replaced, "avatars/")]
		} else {
			want[databaseName] = got[databaseName]
		}
		if len(got) != len(want) || manifest.FilesFrom != src.Name() || manifest.Format != 2 || m.Files != 3+btoi(engine == "postgres") || last != sumsName {
			t.Fatalf("archive of %s: %v\nwant %v\nmanifest %+v, last entry %s", engine, got, want, manifest, last)
		}
		for name, sum := range want {
			if got[name] != sum || sums[name] != sum {
				t.Fatalf("%s: archived %s, SHA256SUMS %s, in the bucket %s", name, got[name], sums[name], sum)
			}
		}
		if len(sums) != len(got) {
			t.Fatalf("SHA256SUMS lists %d entries, the archive holds %d", len(sums), len(got))
		}

		// Into a new bucket: the same objects, nothing in the data directory but the database.
		dst := srv.Store(t)
		restored := filepath.Join(t.TempDir(), "restored")
		rm, err := RestoreWith(ctx, bytes.NewReader(archive.Bytes()), restored, RestoreOptions{Files: dst})
		if err != nil || rm.Files != m.Files {
			t.Fatalf("restore into a bucket: %+v %v", rm, err)
		}
		out := objects(t, dst)
		if len(out) != len(want)-btoi(engine == "sqlite") {
			t.Fatalf("restored objects %v, want the archive's %v", out, want)
		}
		for key, sum := range out {
			if want["files/"+key] != sum {
				t.Fatalf("restored %s: %s, archived %s", key, sum, want["files/"+key])
			}
		}
		if _, err := os.Stat(filepath.Join(restored, "avatars")); !os.IsNotExist(err) {
			t.Fatalf("the restore into a bucket wrote avatars into the data directory: %v", err)
		}

		// Into a data directory: the same files there.
		local := t.TempDir()
		if _, err := Restore(bytes.NewReader(archive.Bytes()), local); err != nil {
			t.Fatal(err)
		}
		if in := objects(t, storage.NewLocal(local)); in[bigKey] != want["files/"+bigKey] {
			t.Fatalf("restored locally: %v", in)
		}

		// The bucket now holds files: a second restore is refused and
		// leaves the bucket and the new directory as they were.
		again := t.TempDir()
		if _, err := RestoreWith(ctx, bytes.NewReader(archive.Bytes()), again, RestoreOptions{Files: dst}); err == nil ||
			!strings.Contains(err.Error(), "already holds uploaded files") {
			t.Fatalf("a restore into a bucket with files: %v", err)
		}
		if after := objects(t, dst); fmt.Sprint(after) != fmt.Sprint(out) {
			t.Fatalf("the refused restore changed the bucket: %v, was %v", after, out)
		}
		if e, _ := os.ReadDir(again); len(e) > 0 {
			t.Fatalf("the refused restore left %d entries in the data directory", len(e))
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hostileEntry is an archive entry as written, whatever it claims.
type hostileEntry struct {
	name string
	body string
	size int64 // when not 0, the size the header claims, with no body after it
}

// hostileArchive is a format 2 archive of the entries, in order, ending with
// SHA256SUMS computed over them unless sums says what it holds ("-": no
// SHA256SUMS at all).
func hostileArchive(t *testing.T, list []hostileEntry, sums *string) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	manifest, _ := json.Marshal(Manifest{Format: 2, Engine: "postgres"})
	if err := writeEntry(tw, manifestName, int64(len(manifest)), time.Now(), bytes.NewReader(manifest)); err != nil {
		t.Fatal(err)
	}
	var computed strings.Builder
	for _, e := range list {
		if e.size != 0 {
			// A header claiming more than follows: the archive ends there.
			if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o600, Size: e.size, Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			_ = gz.Close()
			return b.Bytes()
		}
		if err := writeEntry(tw, e.name, int64(len(e.body)), time.Now(), strings.NewReader(e.body)); err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256([]byte(e.body))
		fmt.Fprintf(&computed, "%x  %s\n", s, e.name)
	}
	list2 := computed.String()
	if sums != nil {
		list2 = *sums
	}
	if list2 != "-" {
		if err := writeEntry(tw, sumsName, int64(len(list2)), time.Now(), strings.NewReader(list2)); err != nil {
			t.Fatal(err)
		}
	}
	_ = tw.Close()
	_ = gz.Close()
	return b.Bytes()
}

// TestHostileArchiveIntoABucketIsRefused: entries that would leave the
// data directory or the bucket's folders, an entry claiming a huge size, a
// file whose checksum is wrong and an archive cut before its checksums are
// each refused with a reason, after a good file was already stored: the
// bucket and the data directory are left empty.
func TestHostileArchiveIntoABucketIsRefused(t *testing.T) {
	srv := storagetest.StartT(t)
	dst := srv.Store(t)
	good := hostileEntry{name: "files/avatars/0123456789abcdef0123456789abcdef.png", body: "a stored picture"}
	wrongSums := strings.Repeat("0", 64) + "  " + good.name + "\n"
	noSums := "-"
	for _, c := range []struct {
		name    string
		archive []byte
		reason  string
	}{
		{"a relative path out", hostileArchive(t, []hostileEntry{good, {name: "files/../../etc/cron.d/evil", body: "x"}}, nil), "would land outside"},
		{"an absolute path", hostileArchive(t, []hostileEntry{good, {name: "/etc/cron.d/evil", body: "x"}}, nil), `unexpected entry "/etc/cron.d/evil"`},
		{"an absolute path under files/", hostileArchive(t, []hostileEntry{good, {name: "files//etc/cron.d/evil", body: "x"}}, nil), "would land outside"},
		{"a path into the bucket's upload marker", hostileArchive(t, []hostileEntry{good, {name: "files/avatars/.upload-1", body: "x"}}, nil), "would land outside"},
		{"a huge entry", hostileArchive(t, []hostileEntry{good, {name: "files/avatars/fedcba9876543210fedcba9876543210.png", size: 1 << 40}}, nil), "claims 1099511627776 bytes"},
		{"a huge database", hostileArchive(t, []hostileEntry{good, {name: databaseName, size: 1 << 41}}, nil), "claims 2199023255552 bytes"},
		{"a wrong checksum", hostileArchive(t, []hostileEntry{good}, &wrongSums), "does not match its checksum"},
		{"no checksums", hostileArchive(t, []hostileEntry{good}, &noSums), "ends before SHA256SUMS"},
		{"an entry after the checksums", appendAfterSums(t, hostileArchive(t, []hostileEntry{good}, nil)), "follows SHA256SUMS"},
		{"one file twice", hostileArchive(t, []hostileEntry{good, {name: "files/avatars/./0123456789abcdef0123456789abcdef.png", body: "another"}}, nil), "holds it twice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			_, err := RestoreWith(context.Background(), bytes.NewReader(c.archive), dir, RestoreOptions{Files: dst})
			if err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("restore: %v, want it refused for %q", err, c.reason)
			}
			if left := objects(t, dst); len(left) > 0 {
				t.Fatalf("the refused restore left %v in the bucket", left)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("the refused restore left the data directory it made: %v", err)
			}
		})
	}
	// The good file alone restores: the refusals were the hostile parts.
	if _, err := RestoreWith(context.Background(), bytes.NewReader(hostileArchive(t, []hostileEntry{good}, nil)), t.TempDir(), RestoreOptions{Files: dst}); err != nil {
		t.Fatal(err)
	}
	if got := objects(t, dst); len(got) != 1 {
		t.Fatalf("the good archive restored %v", got)
	}
}

// appendAfterSums copies an archive and adds a file after its SHA256SUMS.
func appendAfterSums(t *testing.T, archive []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	rewrite(t, archive, &b, func(tw *tar.Writer) {
		if err := writeEntry(tw, "files/avatars/fedcba9876543210fedcba9876543210.png", 1, time.Now(), strings.NewReader("x")); err != nil {
			t.Fatal(err)
		}
	}, nil)
	return b.Bytes()
}
