package library

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/levels"
	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// mp4Bytes is n bytes that sniff as an MP4 file.
func mp4Bytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	copy(b, []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"))
	return b
}

// cutReader yields n bytes of r, then fails as a dropped connection does.
type cutReader struct {
	r io.Reader
	n int
}

func (c *cutReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, errors.New("connection reset")
	}
	if len(p) > c.n {
		p = p[:c.n]
	}
	k, err := c.r.Read(p)
	c.n -= k
	return k, err
}

// TestUploadInterruptedAndResumed: on each engine and each store, a
// chunk cut off halfway leaves the offset where it was, the client asks
// for the offset and resumes, a chunk from the wrong offset is refused
// with the offset, and the attached file holds exactly the bytes sent
// (checksum), sniffed as MP4; the parts and the upload are gone after.
func TestUploadInterruptedAndResumed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		storagetest.Each(t, func(t *testing.T, files storage.Store) {
			f := newFixture(t, db, files)
			ctx := context.Background()
			who := strings.ReplaceAll(t.Name(), "/", ".")
			admin := f.admin("Owner." + who)
			data := mp4Bytes(t, 3<<20+123)
			st, err := f.svc.CreateUpload(ctx, admin, UploadInput{Filename: "call.mp4", Size: int64(len(data)), ContentType: "video/mp4"})
			if err != nil || st.Offset != 0 {
				t.Fatalf("create: %+v %v", st, err)
			}
			chunk := int64(1 << 20)
			send := func(first int64, r io.Reader) (*UploadState, error) {
				last := min(first+chunk, int64(len(data))) - 1
				return f.svc.AppendChunk(ctx, admin, st.UploadID, Range{first, last, int64(len(data))}, r)
			}
			if _, err := send(0, bytes.NewReader(data[:chunk])); err != nil {
				t.Fatal(err)
			}
			// The second chunk's connection drops halfway.
			_, err = send(chunk, &cutReader{r: bytes.NewReader(data[chunk : 2*chunk]), n: int(chunk / 2)})
			var off *OffsetError
			if !errors.As(err, &off) || off.Offset != chunk {
				t.Fatalf("cut chunk: %v", err)
			}
			now, err := f.svc.Upload(ctx, admin, st.UploadID)
			if err != nil || now.Offset != chunk || now.Complete {
				t.Fatalf("state after the cut: %+v %v", now, err)
			}
			// A chunk from elsewhere is refused with the offset to resume from.
			_, err = send(2*chunk, bytes.NewReader(data[2*chunk:3*chunk]))
			if !errors.As(err, &off) || off.Offset != chunk || !errs.Is(err, errs.Conflict) {
				t.Fatalf("chunk from the wrong offset: %v", err)
			}
			for first := now.Offset; first < int64(len(data)); first += chunk {
				last := min(first+chunk, int64(len(data)))
				if st, err = send(first, bytes.NewReader(data[first:last])); err != nil {
					t.Fatal(err)
				}
			}
			if !st.Complete || st.Offset != int64(len(data)) {
				t.Fatalf("final state %+v", st)
			}
			item := f.add(admin, f.published(KindRecording, "Call", 0))
			d, err := f.svc.AttachMedia(ctx, admin, item.ID, MediaInput{UploadID: st.UploadID})
			if err != nil {
				t.Fatal(err)
			}
			if d.MediaType != "video/mp4" || d.MediaSize != int64(len(data)) || d.MediaURL != "/api/library/"+item.ID+"/media" {
				t.Errorf("attached: %+v", d)
			}
			obj, info, err := f.svc.OpenMedia(ctx, f.member("Ann."+who, levels.Apprentice), item.ID)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			_, err = io.Copy(h, obj)
			_ = obj.Close()
			if err != nil || !bytes.Equal(h.Sum(nil), sum(data)) || info.ContentType != "video/mp4" {
				t.Errorf("stored file differs from the upload (%v, %s)", err, info.ContentType)
			}
			left := 0
			_ = files.List(ctx, UploadPrefix, func(storage.Info) error { left++; return nil })
			if left != 0 {
				t.Errorf("%d parts left after attaching", left)
			}
			if _, err := f.svc.Upload(ctx, admin, st.UploadID); !errs.Is(err, errs.NotFound) {
				t.Errorf("attached upload still there: %v", err)
			}
			// Deleting the item deletes its file.
			if err := f.svc.Delete(ctx, admin, item.ID); err != nil {
				t.Fatal(err)
			}
			n := 0
			_ = files.List(ctx, MediaPrefix, func(storage.Info) error { n++; return nil })
			if n != 0 {
				t.Errorf("%d library files left after the delete", n)
			}
		})
	})
}

func sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// TestUploadRefusals: sizes beyond TRIBE_MAX_UPLOAD, a wrong total, an
// unfinished upload attached, and a web page attached are refused, each
// naming what is wrong; members cannot upload.
func TestUploadRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		f.svc.o.MaxUpload = 1 << 20
		ctx := context.Background()
		admin := f.admin("Owner")
		_, err := f.svc.CreateUpload(ctx, admin, UploadInput{Filename: "big.mp4", Size: 1<<20 + 1})
		wantField(t, err, "size")
		_, err = f.svc.CreateUpload(ctx, admin, UploadInput{Filename: " ", Size: 10})
		wantField(t, err, "filename")
		if _, err := f.svc.CreateUpload(ctx, f.member("M", levels.Master), UploadInput{Filename: "a", Size: 10}); !errs.Is(err, errs.Forbidden) {
			t.Errorf("a member uploads: %v", err)
		}
		page := []byte("<!DOCTYPE html><html><script>alert(document.cookie)</script></html>")
		st, err := f.svc.CreateUpload(ctx, admin, UploadInput{Filename: "video.mp4", Size: int64(len(page)), ContentType: "video/mp4"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.AppendChunk(ctx, admin, st.UploadID, Range{0, int64(len(page)) - 1, 999}, bytes.NewReader(page))
		wantField(t, err, "Content-Range")
		item := f.add(admin, f.published(KindMaterial, "Slides", 0))
		if _, err := f.svc.AttachMedia(ctx, admin, item.ID, MediaInput{UploadID: st.UploadID}); !errs.Is(err, errs.Conflict) {
			t.Errorf("unfinished upload attached: %v", err)
		}
		if _, err := f.svc.AppendChunk(ctx, admin, st.UploadID, Range{0, int64(len(page)) - 1, int64(len(page))}, bytes.NewReader(page)); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.AttachMedia(ctx, admin, item.ID, MediaInput{UploadID: st.UploadID})
		wantField(t, err, "upload_id")
		for _, h := range []string{"", "bytes 5-2/10", "bytes 0-10/10", "items 0-1/2", "bytes a-b/c"} {
			if _, err := ParseContentRange(h); err == nil {
				t.Errorf("Content-Range %q accepted", h)
			}
		}
	})
}

// TestSweepRemovesAbandonedUploads: an upload untouched for a day goes
// with its parts; a fresh one and an item's file stay; a library file no
// item names goes once a day old.
func TestSweepRemovesAbandonedUploads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		files := storage.NewLocal(t.TempDir())
		f := newFixture(t, db, files)
		ctx := context.Background()
		admin := f.admin("Owner")
		start := func() string {
			st, err := f.svc.CreateUpload(ctx, admin, UploadInput{Filename: "a.pdf", Size: 20})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.AppendChunk(ctx, admin, st.UploadID, Range{0, 9, 20}, strings.NewReader("%PDF-1.7\n1")); err != nil {
				t.Fatal(err)
			}
			return st.UploadID
		}
		old := start()
		if err := files.Put(ctx, MediaPrefix+"gone/x", strings.NewReader("x"), 1, ""); err != nil {
			t.Fatal(err)
		}
		// Local files carry the real time: move the clock past their day.
		f.clock.Set(time.Now().Add(UploadTTL + time.Hour))
		fresh := start()
		n, err := f.svc.Sweep(ctx)
		if err != nil || n != 2 {
			t.Errorf("swept %d, %v; want the old part and the orphan file", n, err)
		}
		if _, err := f.svc.Upload(ctx, admin, old); !errs.Is(err, errs.NotFound) {
			t.Errorf("old upload kept: %v", err)
		}
		if st, err := f.svc.Upload(ctx, admin, fresh); err != nil || st.Offset != 10 {
			t.Errorf("fresh upload: %+v %v", st, err)
		}
	})
}

// TestSniff: the containers the library keeps are named from their bytes.
func TestSniff(t *testing.T) {
	for want, head := range map[string][]byte{
		"video/mp4":                 []byte("\x00\x00\x00\x20ftypmp42\x00\x00\x00\x00"),
		"audio/mp4":                 []byte("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00"),
		"video/webm":                []byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\x82\x84webm"),
		"audio/mpeg":                []byte("ID3\x04\x00\x00\x00\x00\x00\x00"),
		"application/pdf":           []byte("%PDF-1.7\n"),
		"application/zip":           []byte("PK\x03\x04\x14\x00"),
		"text/html; charset=utf-8":  []byte("<html><body>hi"),
		"text/plain; charset=utf-8": []byte("just words\n"),
	} {
		if got := Sniff(head); got != want {
			t.Errorf("%q: %s, want %s", head, got, want)
		}
	}
	if got := Sniff([]byte{0xFF, 0xFB, 0x90, 0x64}); got != "audio/mpeg" {
		t.Errorf("MP3 frame sync: %s", got)
	}
	if !IsHTML("text/html; charset=utf-8") || IsHTML("video/mp4") || !Inline("application/pdf") || Inline("application/zip") {
		t.Error("IsHTML or Inline")
	}
}
