package community

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// bombPNG is a valid PNG of w×h pixels whose rows are all zero, with the
// given color type (6: RGBA) and bit depth (16), written row by row so the
// test never holds the decoded image: a few hundred KB that decode to
// w×h×8 bytes.
func bombPNG(t testing.TB, w, h int, colorType, depth byte) []byte {
	t.Helper()
	b, err := makeBombPNG(w, h, colorType, depth)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// theBomb is the reported bomb, 6324×6324 16-bit RGBA, 305 MB decoded.
var theBomb = sync.OnceValues(func() ([]byte, error) { return makeBombPNG(6324, 6324, 6, 16) })

func bigBomb(t testing.TB) []byte {
	t.Helper()
	b, err := theBomb()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// makeBombPNG writes the PNG without compressing every row: deflate blocks
// that end byte-aligned (a flush) may be concatenated, so one compressed
// zero row is repeated h times, then come a final empty block and the zlib
// checksum (Adler-32 of n zero bytes is n mod 65521 in its high half, 1 low).
func makeBombPNG(w, h int, colorType, depth byte) ([]byte, error) {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		out.WriteString(kind)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	chunk("IHDR", ihdr)
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colorType]
	rowLen := 1 + w*channels*int(depth)/8 // filter byte 0, then zeros
	var row bytes.Buffer
	fw, err := flate.NewWriter(&row, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write(make([]byte, rowLen)); err != nil {
		return nil, err
	}
	if err := fw.Flush(); err != nil {
		return nil, err
	}
	z := bytes.NewBuffer([]byte{0x78, 0xda}) // zlib header: deflate, best compression
	for range h {
		z.Write(row.Bytes())
	}
	z.Write([]byte{0x03, 0x00}) // final, empty, fixed-Huffman block
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], uint32(uint64(rowLen)*uint64(h)%65521)<<16|1)
	z.Write(sum[:])
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes(), nil
}

// TestAvatarDecompressionBomb: a 16-bit RGBA PNG of 6324×6324 pixels is a
// few hundred KB and passed the old 40-megapixel cap, then took seconds and
// over 300 MB to decode. It is refused from its header, before decoding,
// and says why.
func TestAvatarDecompressionBomb(t *testing.T) {
	bomb := bigBomb(t)
	t.Logf("bomb: %d bytes on the wire, %d MB decoded", len(bomb), 6324*6324*8>>20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, _, err := RenderAvatar(bytes.NewReader(bomb))
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("RenderAvatar: %v, %d KB allocated, error %v", took, allocated>>10, err)
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.TooLarge || e.Message != "The image is too large: at most 2896 × 2896 pixels." {
		t.Fatalf("bomb: %#v, want too_large naming the size this kind of image may have", err)
	}
	if allocated > 16<<20 {
		t.Fatalf("refusing the bomb allocated %d MB; it must not be decoded", allocated>>20)
	}
}

// TestAvatarPixelCap: the caps are by pixels (4096×4096) and by decoded
// bytes; an image over them is told its size, not that it is no image.
func TestAvatarPixelCap(t *testing.T) {
	cases := []struct {
		name         string
		w, h         int
		colorType    byte
		depth        byte
		wantTooLarge string
	}{
		{"8-bit gray just over 16 MP", 4097, 4096, 0, 8, "The image is too large: at most 4096 × 4096 pixels."},
		{"8-bit RGBA over 16 MP", 8000, 3000, 6, 8, "The image is too large: at most 4096 × 4096 pixels."},
		{"16-bit RGBA over 64 MB decoded", 3000, 3000, 6, 16, "The image is too large: at most 2896 × 2896 pixels."},
		{"one row of 20 million", 20_000_000, 1, 0, 8, "The image is too large: at most 4096 × 4096 pixels."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := RenderAvatar(bytes.NewReader(bombPNG(t, c.w, c.h, c.colorType, c.depth)))
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != errs.TooLarge || e.Message != c.wantTooLarge {
				t.Fatalf("%dx%d: %#v, want %q", c.w, c.h, err, c.wantTooLarge)
			}
		})
	}
	// Within the caps: a 16-bit RGBA image of 1000×1000 (8 MB decoded) is fine.
	if _, ext, err := RenderAvatar(bytes.NewReader(bombPNG(t, 1000, 1000, 6, 16))); err != nil || ext != "png" {
		t.Fatalf("16-bit RGBA 1000×1000: %v %q", err, ext)
	}
}

// jpegHeader is a small baseline JPEG whose frame header claims w×h pixels,
// made progressive when asked: what the header-only checks read.
func jpegHeader(t testing.TB, w, h int, progressive bool) []byte {
	t.Helper()
	b := jpegBytes(t, 16, 16) // 4:2:0, as image/jpeg writes it
	i := bytes.Index(b, []byte{0xff, 0xc0})
	if i < 0 {
		t.Fatal("no SOF0 in the encoded JPEG")
	}
	if progressive {
		b[i+1] = 0xc2
	}
	binary.BigEndian.PutUint16(b[i+5:], uint16(h))
	binary.BigEndian.PutUint16(b[i+7:], uint16(w))
	return b
}

// TestProgressiveJPEGCountsItsCoefficients: image/jpeg keeps 4 bytes per
// coefficient of a progressive JPEG until the end (a 197 KB progressive
// 4:4:4 JPEG of 4096×4096 allocates 240 MB), so the cap counts them.
func TestProgressiveJPEGCountsItsCoefficients(t *testing.T) {
	if _, err := readAvatar(bytes.NewReader(jpegHeader(t, 4096, 4096, false))); err != nil {
		t.Fatalf("a baseline 4096×4096 JPEG is within the caps: %v", err)
	}
	_, err := readAvatar(bytes.NewReader(jpegHeader(t, 4096, 4096, true)))
	var e *errs.Error
	// 4:2:0: 3 bytes of planes + 4 × 1.5 samples of coefficients a pixel.
	if !errors.As(err, &e) || e.Code != errs.TooLarge || e.Message != "The image is too large: at most 2730 × 2730 pixels." {
		t.Fatalf("progressive 4096×4096: %#v", err)
	}
	if _, err := readAvatar(bytes.NewReader(jpegHeader(t, 2700, 2700, true))); err != nil {
		t.Fatalf("a progressive 2700×2700 JPEG is within the caps: %v", err)
	}
	for _, b := range [][]byte{{0xff, 0xd8, 0xff, 0xc0, 0, 0}, {0xff, 0xd8, 0xff, 0xe0, 0, 1, 0xff}, {0xff, 0xd8, 0xff, 0xc2, 0, 8, 8}} {
		if got := jpegBytesPerPixel(b); got != 24 {
			t.Errorf("malformed header %x: %v bytes a pixel, want the worst case 24", b, got)
		}
	}
}

// TestAvatarsBoundConcurrentDecodes: with every decoder busy an upload waits,
// gives up with its request, or after the wait is told the server is busy.
func TestAvatarsBoundConcurrentDecodes(t *testing.T) {
	a := NewAvatars(storage.NewLocal(t.TempDir()), 1)
	img := pngBytes(t, 40, 30, 255)
	a.slots <- struct{}{} // the one decoder is busy
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, _, err := a.Render(ctx, bytes.NewReader(img)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting past the request's end: %v", err)
	}
	a.wait = 30 * time.Millisecond
	if _, _, err := a.Render(context.Background(), bytes.NewReader(img)); !errors.Is(err, ErrAvatarBusy) || !errs.Is(err, errs.Unavailable) {
		t.Fatalf("waiting past the slot wait: %v", err)
	}
	// A bomb is refused without waiting for a decoder at all.
	if _, _, err := a.Render(context.Background(), bytes.NewReader(bigBomb(t))); !errs.Is(err, errs.TooLarge) {
		t.Fatalf("bomb while busy: %v", err)
	}
	<-a.slots
	if _, ext, err := a.Render(context.Background(), bytes.NewReader(img)); err != nil || ext != "jpg" {
		t.Fatalf("free decoder: %q %v", ext, err)
	}
	if len(a.slots) != 0 {
		t.Fatal("a finished decode must give its slot back")
	}
}

// TestAvatarUploadAllowance: five uploads per account at once, then one
// every 30 seconds; accounts do not share.
func TestAvatarUploadAllowance(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a := NewAvatars(storage.NewLocal(t.TempDir()), 0, ratelimit.WithClock(func() time.Time { return now }))
	for i := range AvatarUploadBurst {
		if ok, _ := a.AllowUpload("ada"); !ok {
			t.Fatalf("upload %d refused", i+1)
		}
	}
	if ok, wait := a.AllowUpload("ada"); ok || wait != AvatarUploadEvery {
		t.Fatalf("upload past the burst: %v %v", ok, wait)
	}
	if ok, _ := a.AllowUpload("grace"); !ok {
		t.Fatal("another account has its own allowance")
	}
	if cap(a.slots) != DefaultAvatarDecodes {
		t.Fatalf("%d decoders, want the default %d", cap(a.slots), DefaultAvatarDecodes)
	}
}

// TestAvatarsSetOnBothEngines: the shared store renders, stores and removes.
func TestAvatarsSetOnBothEngines(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		root := t.TempDir()
		a := NewAvatars(storage.NewLocal(root), 1)
		u := addUser(t, db, "ada@example.com")
		p, err := a.Set(ctx, db, u, bytes.NewReader(pngBytes(t, 300, 200, 255)))
		if err != nil || p.AvatarURL == nil {
			t.Fatalf("set: %+v %v", p, err)
		}
		path, ct, ok := AvatarFile(AvatarDir(root), strings.TrimPrefix(*p.AvatarURL, AvatarURLPrefix))
		if !ok || ct != "image/jpeg" {
			t.Fatalf("file %q %q %v", path, ct, ok)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Set(ctx, db, u, bytes.NewReader(bigBomb(t))); !errs.Is(err, errs.TooLarge) {
			t.Fatalf("bomb: %v", err)
		}
		if p, err := a.Remove(ctx, db, u); err != nil || p.AvatarURL != nil {
			t.Fatalf("remove: %+v %v", p, err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatal("the removed avatar's file is still there")
		}
	})
}

// scanBombJPEG is a grey progressive JPEG of w×h pixels with a DC scan and
// then acScans AC scans that hold nothing: each is a few end-of-band runs
// covering every block, a dozen bytes that make the decoder visit every
// block again. The reported bomb was 3600×3600 with 2,000 such scans.
func scanBombJPEG(w, h, acScans int) []byte {
	var out bytes.Buffer
	segment := func(marker byte, data []byte) {
		out.Write([]byte{0xff, marker, byte((len(data) + 2) >> 8), byte(len(data) + 2)})
		out.Write(data)
	}
	out.Write([]byte{0xff, 0xd8})
	segment(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	segment(0xc2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
	oneCode := make([]byte, 16) // one code, of length 1 ("0")
	oneCode[0] = 1
	segment(0xc4, append(append([]byte{0x00}, oneCode...), 0x00)) // DC: difference 0
	segment(0xc4, append(append([]byte{0x10}, oneCode...), 0xe0)) // AC: EOB run of 2¹⁴ + 14 bits
	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	var bits jpegBits
	segment(0xda, []byte{1, 1, 0x00, 0, 0, 0})
	for range blocks {
		bits.put(0, 1)
	}
	out.Write(bits.flush())
	runs := (blocks + 32766) / 32767
	for range acScans {
		segment(0xda, []byte{1, 1, 0x00, 1, 63, 0})
		left := blocks
		for i := range runs {
			n := left / (runs - i)
			bits.put(0, 1)
			bits.put(uint32(n-16384), 14)
			left -= n
		}
		out.Write(bits.flush())
	}
	out.Write([]byte{0xff, 0xd9})
	return out.Bytes()
}

// jpegBits writes entropy-coded bits, stuffing a zero after each 0xFF.
type jpegBits struct {
	out   bytes.Buffer
	acc   byte
	nbits int
}

func (b *jpegBits) put(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		b.acc = b.acc<<1 | byte(v>>i&1)
		if b.nbits++; b.nbits == 8 {
			b.out.WriteByte(b.acc)
			if b.acc == 0xff {
				b.out.WriteByte(0)
			}
			b.acc, b.nbits = 0, 0
		}
	}
}

// flush pads the last byte with ones, as the standard asks, and hands over
// the bytes written.
func (b *jpegBits) flush() []byte {
	for b.nbits != 0 {
		b.put(1, 1)
	}
	out := bytes.Clone(b.out.Bytes())
	b.out.Reset()
	return out
}

// TestAvatarJPEGScanBomb: a 3600×3600 progressive JPEG of about 50 KB with
// 2,000 empty scans passed every size check and cost about 10 ms of CPU a
// scan (20 s in all; a 5 MB file holds ~160,000 scans). It is refused from
// its markers, before any pixel is decoded, with a 400 that says why, while
// what encoders write (libjpeg's 10-scan progressive file, a baseline file,
// up to MaxJPEGScans scans) is decoded.
func TestAvatarJPEGScanBomb(t *testing.T) {
	bomb := scanBombJPEG(3600, 3600, 2000)
	t.Logf("bomb: %d bytes, %d scans", len(bomb), jpegScans(bomb, 1<<30))
	if got := jpegScans(bomb, 1<<30); got != 2001 {
		t.Fatalf("the counter finds %d scans in the bomb, want 2001", got)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := RenderAvatar(bytes.NewReader(bomb))
	runtime.ReadMemStats(&after)
	var e *errs.Error
	if !errors.As(err, &e) || e != ErrJPEGScans || e.Code != errs.InvalidImage {
		t.Fatalf("scan bomb: %#v, want ErrJPEGScans (invalid_image, 400)", err)
	}
	// Decoding would allocate 52 MB of coefficients (202,500 blocks).
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 8<<20 {
		t.Fatalf("refusing the scan bomb allocated %d MB; it must not be decoded", allocated>>20)
	}
	a := NewAvatars(storage.NewLocal(t.TempDir()), 1)
	a.slots <- struct{}{} // refused without waiting for a decoder
	if _, _, err := a.Render(context.Background(), bytes.NewReader(bomb)); err != ErrJPEGScans {
		t.Fatalf("scan bomb while the decoder is busy: %v", err)
	}

	if _, ext, err := RenderAvatar(bytes.NewReader(scanBombJPEG(64, 64, MaxJPEGScans-1))); err != nil || ext != "jpg" {
		t.Fatalf("%d scans (the cap) must decode: %q %v", MaxJPEGScans, ext, err)
	}
	if _, _, err := RenderAvatar(bytes.NewReader(scanBombJPEG(64, 64, MaxJPEGScans))); err != ErrJPEGScans {
		t.Fatalf("%d scans (one over): %v", MaxJPEGScans+1, err)
	}
	progressive, err := os.ReadFile("testdata/avatars/progressive.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if n := jpegScans(progressive, 1<<30); n != 10 {
		t.Fatalf("libjpeg's progressive file: %d scans, want 10", n)
	}
	baseline := jpegBytes(t, 300, 200)
	if n := jpegScans(baseline, 1<<30); n != 1 {
		t.Fatalf("a baseline file: %d scans, want 1", n)
	}
	for name, b := range map[string][]byte{"progressive": progressive, "baseline": baseline} {
		if _, _, err := RenderAvatar(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Stuffed 0xFF bytes and restart markers inside a scan are not markers.
	stuffed := []byte{0xff, 0xd8, 0xff, 0xda, 0, 2, 0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xda, 0, 2, 0xff, 0xd9, 0xff, 0xda}
	if n := jpegScans(stuffed, 1<<30); n != 2 {
		t.Fatalf("stuffed bytes and restart markers: %d scans, want 2", n)
	}
}

// cancelAfter reads r and cancels the request once n bytes have been read,
// as a client that hangs up in the middle of a decode.
type cancelAfter struct {
	r      io.Reader
	n      int
	read   int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.read += n; c.read >= c.n {
		c.cancel()
	}
	return n, err
}

// TestAvatarDecodeStopsWhenClientHangsUp: decoding went on after the client
// had gone, holding a decoder. The decode now ends at its next read with the
// request's error, and the decoder is free again.
func TestAvatarDecodeStopsWhenClientHangsUp(t *testing.T) {
	big := jpegBytes(t, 2000, 2000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &cancelAfter{r: bytes.NewReader(big), n: 16 << 10, cancel: cancel}
	if _, err := decodeAvatar(ctx, r); !errors.Is(err, context.Canceled) {
		t.Fatalf("decode after the client went: %v, want context.Canceled", err)
	}
	if r.read > r.n+decodeChunk {
		t.Fatalf("the decoder read %d of %d bytes; it must stop within %d bytes of the cancel", r.read, len(big), decodeChunk)
	}
	if r.read >= len(big) {
		t.Fatal("the whole image was decoded")
	}

	a := NewAvatars(storage.NewLocal(t.TempDir()), 1)
	gone, end := context.WithCancel(context.Background())
	end()
	if _, _, err := a.Render(gone, bytes.NewReader(big)); !errors.Is(err, context.Canceled) {
		t.Fatalf("render for a client that has gone: %v", err)
	}
	if len(a.slots) != 0 {
		t.Fatal("the decoder is still held after the client went")
	}
}
