package storage_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
)

func put(t *testing.T, s storage.Store, key, body string) {
	t.Helper()
	if err := s.Put(context.Background(), key, strings.NewReader(body), int64(len(body)), "image/png"); err != nil {
		t.Fatalf("Put %s: %v", key, err)
	}
}

func read(t *testing.T, s storage.Store, key string) (string, storage.Info) {
	t.Helper()
	f, info, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open %s: %v", key, err)
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return string(b), info
}

func keys(t *testing.T, s storage.Store, prefix string) []string {
	t.Helper()
	var out []string
	if err := s.List(context.Background(), prefix, func(i storage.Info) error {
		out = append(out, i.Key)
		return nil
	}); err != nil {
		t.Fatalf("List %q: %v", prefix, err)
	}
	return out
}

func TestStoreRoundTrip(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		before := time.Now().Add(-2 * time.Second)
		put(t, s, "avatars/a.png", "first")
		got, info := read(t, s, "avatars/a.png")
		if got != "first" || info.Size != 5 || info.ContentType != "image/png" || info.Key != "avatars/a.png" {
			t.Fatalf("read back %q %+v", got, info)
		}
		if info.ModTime.Before(before) || info.ModTime.After(time.Now().Add(2*time.Second)) {
			t.Errorf("ModTime %v is not now", info.ModTime)
		}
		put(t, s, "avatars/a.png", "second, longer")
		if got, _ := read(t, s, "avatars/a.png"); got != "second, longer" {
			t.Errorf("after overwrite: %q", got)
		}
		st, err := s.Stat(ctx, "avatars/a.png")
		if err != nil || st.Size != int64(len("second, longer")) {
			t.Errorf("Stat = %+v, %v", st, err)
		}
		if err := s.Delete(ctx, "avatars/a.png"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Open(ctx, "avatars/a.png"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("Open after Delete: %v, want ErrNotFound", err)
		}
		if _, err := s.Stat(ctx, "avatars/a.png"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("Stat after Delete: %v, want ErrNotFound", err)
		}
		if err := s.Delete(ctx, "avatars/a.png"); err != nil {
			t.Errorf("deleting a missing object: %v", err)
		}
	})
}

func TestStoreSeeksForRanges(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		put(t, s, "media/talk.txt", "0123456789abcdef")
		f, _, err := s.Open(context.Background(), "media/talk.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = f.Close() }()
		if _, err := f.Seek(10, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4)
		if _, err := io.ReadFull(f, b); err != nil || string(b) != "abcd" {
			t.Fatalf("read after seek: %q, %v", b, err)
		}
		if end, err := f.Seek(0, io.SeekEnd); err != nil || end != 16 {
			t.Errorf("Seek end = %d, %v", end, err)
		}
	})
}

func TestStoreRefusesHostileKeys(t *testing.T) {
	bad := []string{"", "../x", "/x", "a/../../x", "avatars/../../etc/passwd", "a//b", "a/./b", "a/", "a\\..\\b",
		"avatars/.upload-123", "a\x00b", "a\nb", strings.Repeat("k", 513), ".", ".."}
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		for _, key := range bad {
			if err := s.Put(ctx, key, strings.NewReader("x"), 1, ""); !errors.Is(err, storage.ErrInvalidKey) {
				t.Errorf("Put %q: %v, want ErrInvalidKey", key, err)
			}
			if _, _, err := s.Open(ctx, key); !errors.Is(err, storage.ErrInvalidKey) {
				t.Errorf("Open %q: %v, want ErrInvalidKey", key, err)
			}
			if _, err := s.Stat(ctx, key); !errors.Is(err, storage.ErrInvalidKey) {
				t.Errorf("Stat %q: %v, want ErrInvalidKey", key, err)
			}
			if err := s.Delete(ctx, key); !errors.Is(err, storage.ErrInvalidKey) {
				t.Errorf("Delete %q: %v, want ErrInvalidKey", key, err)
			}
			if err := s.Move(ctx, "a", key); !errors.Is(err, storage.ErrInvalidKey) {
				t.Errorf("Move to %q: %v, want ErrInvalidKey", key, err)
			}
			if _, err := s.URL(ctx, key, time.Minute); !errors.Is(err, storage.ErrInvalidKey) && !errors.Is(err, storage.ErrNoURL) {
				t.Errorf("URL %q: %v, want ErrInvalidKey", key, err)
			}
		}
		if got := keys(t, s, ""); len(got) != 0 {
			t.Errorf("hostile keys stored %v", got)
		}
	})
	// On disk nothing lands beside the root either.
	parent := t.TempDir()
	root := filepath.Join(parent, "data")
	l := storage.NewLocal(root)
	for _, key := range bad {
		_ = l.Put(context.Background(), key, strings.NewReader("x"), 1, "")
	}
	if entries, _ := os.ReadDir(parent); len(entries) > 0 {
		t.Errorf("hostile keys wrote beside the root: %v", entries)
	}
}

// failingReader yields n bytes, then fails as a dropped connection does.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	k := min(len(p), f.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	f.n -= k
	return k, nil
}

func TestInterruptedUploadLeavesNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		// Failing reader, size unknown and known; a body shorter than
		// announced; a request cancelled half-way (a large upload, so that
		// S3's multipart path is taken too).
		if err := s.Put(ctx, "a/broken", &failingReader{n: 1000}, -1, ""); err == nil {
			t.Error("Put of a failing reader succeeded")
		}
		if err := s.Put(ctx, "a/broken", &failingReader{n: 1000}, 5000, ""); err == nil {
			t.Error("Put of a failing reader of known size succeeded")
		}
		if err := s.Put(ctx, "a/short", strings.NewReader("only this"), 100, ""); err == nil {
			t.Error("Put of a body shorter than its size succeeded")
		}
		cctx, cancel := context.WithCancel(ctx)
		r := io.MultiReader(io.LimitReader(zeros{}, 20<<20), cancelling{cancel}, io.LimitReader(zeros{}, 20<<20))
		if err := s.Put(cctx, "a/cancelled", r, -1, ""); err == nil {
			t.Error("Put of a cancelled upload succeeded")
		}
		for _, k := range []string{"a/broken", "a/short", "a/cancelled"} {
			if _, err := s.Stat(ctx, k); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("Stat %s after a failed Put: %v, want ErrNotFound", k, err)
			}
		}
		if got := keys(t, s, ""); len(got) != 0 {
			t.Errorf("failed uploads left %v", got)
		}
		// A failed overwrite keeps the old object whole.
		put(t, s, "a/kept", "the old picture")
		if err := s.Put(ctx, "a/kept", &failingReader{n: 3}, -1, ""); err == nil {
			t.Fatal("failing overwrite succeeded")
		}
		if got, _ := read(t, s, "a/kept"); got != "the old picture" {
			t.Errorf("after a failed overwrite: %q", got)
		}
	})
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// cancelling cancels its context when the upload reaches it.
type cancelling struct{ cancel context.CancelFunc }

func (c cancelling) Read([]byte) (int, error) { c.cancel(); return 0, io.EOF }

func TestLargeUploadOfUnknownSize(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		const size = 40 << 20 // three parts of an S3 multipart upload
		data := bytes.Repeat([]byte("tribe-storage-"), size/14+1)[:size]
		if err := s.Put(context.Background(), "media/big.bin", io.MultiReader(bytes.NewReader(data)), -1, "application/octet-stream"); err != nil {
			t.Fatal(err)
		}
		f, info, err := s.Open(context.Background(), "media/big.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = f.Close() }()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			t.Fatal(err)
		}
		if info.Size != size || !bytes.Equal(h.Sum(nil), sum(data)) {
			t.Errorf("size %d, checksum mismatch", info.Size)
		}
	})
}

func sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

func TestListAndMove(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		for _, k := range []string{"avatars/b.jpg", "avatars/a.png", "avatarsx/c.png", "media/d.mp4", "avatars/.replaced/e.jpg"} {
			put(t, s, k, k)
		}
		if got := strings.Join(keys(t, s, "avatars/"), " "); got != "avatars/.replaced/e.jpg avatars/a.png avatars/b.jpg" {
			t.Errorf("List avatars/ = %s", got)
		}
		if got := strings.Join(keys(t, s, "avatars/.replaced/"), " "); got != "avatars/.replaced/e.jpg" {
			t.Errorf("List avatars/.replaced/ = %s", got)
		}
		if got := len(keys(t, s, "")); got != 5 {
			t.Errorf("List all = %d keys, want 5", got)
		}
		stop := errors.New("stop")
		n := 0
		if err := s.List(ctx, "", func(storage.Info) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Errorf("List did not stop at fn's error: %v after %d", err, n)
		}
		if err := s.Move(ctx, "avatars/a.png", "avatars/.replaced/a.png"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stat(ctx, "avatars/a.png"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("moved object still there: %v", err)
		}
		if got, info := read(t, s, "avatars/.replaced/a.png"); got != "avatars/a.png" || time.Since(info.ModTime) > time.Minute {
			t.Errorf("moved object %q %+v", got, info)
		}
		if err := s.Move(ctx, "avatars/none.png", "avatars/x.png"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("moving a missing object: %v, want ErrNotFound", err)
		}
	})
}

func TestPresignedURL(t *testing.T) {
	ctx := context.Background()
	if _, err := storage.NewLocal(t.TempDir()).URL(ctx, "a/b", time.Minute); !errors.Is(err, storage.ErrNoURL) {
		t.Errorf("local URL: %v, want ErrNoURL", err)
	}
	s := storagetest.S3(t)
	put(t, s, "media/talk.mp4", "the recording")
	u, err := s.URL(ctx, "media/talk.mp4", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u, "X-Amz-Expires=900") {
		t.Errorf("URL %s does not expire within 15 minutes", u)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != "the recording" {
		t.Errorf("presigned GET: %d %q", resp.StatusCode, b)
	}
	// The bucket is private: the same object without a signature is refused.
	plain := u[:strings.Index(u, "?")]
	resp, err = http.Get(plain)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("unsigned GET %s answered 200", plain)
	}
}

// TestMigrateCopiesOnceAndVerifies: every local file under the prefix is
// copied to the other store and checked; a second run copies nothing; a
// copy that differs is copied again; files out of service are left.
func TestMigrateCopiesOnceAndVerifies(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, dst storage.Store) {
		ctx := context.Background()
		src := storage.NewLocal(t.TempDir())
		for _, k := range []string{"avatars/a.jpg", "avatars/b.png", "avatars/.replaced/c.jpg", "tribe.db"} {
			put(t, src, k, "bytes of "+k)
		}
		skip := storage.InFolder
		m, err := storage.Migrate(ctx, src, dst, "avatars/", skip, nil)
		if err != nil || m.Copied != 2 || m.Present != 0 || m.Bytes != int64(len("bytes of avatars/a.jpg")*2) {
			t.Fatalf("first run: %+v %v", m, err)
		}
		if got := strings.Join(keys(t, dst, ""), " "); got != "avatars/a.jpg avatars/b.png" {
			t.Fatalf("copied %s", got)
		}
		if got, info := read(t, dst, "avatars/b.png"); got != "bytes of avatars/b.png" || info.ContentType != "image/png" {
			t.Errorf("copy reads %q %+v", got, info)
		}
		m, err = storage.Migrate(ctx, src, dst, "avatars/", skip, nil)
		if err != nil || m.Copied != 0 || m.Present != 2 {
			t.Fatalf("second run: %+v %v; want nothing copied", m, err)
		}
		put(t, dst, "avatars/a.jpg", "bytes of avatars/x.jpg") // same size, other bytes
		m, err = storage.Migrate(ctx, src, dst, "avatars/", skip, nil)
		if err != nil || m.Copied != 1 || m.Present != 1 {
			t.Fatalf("after a damaged copy: %+v %v", m, err)
		}
		if got, _ := read(t, dst, "avatars/a.jpg"); got != "bytes of avatars/a.jpg" {
			t.Errorf("damaged copy not replaced: %q", got)
		}
	})
}
