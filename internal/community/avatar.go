package community

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // accepted avatar formats register their decoders
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"tribe/internal/errs"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// Avatar limits. An avatar is shown at most at 256 px, so a phone photo
// (12 MP) is the largest upload worth decoding. A small file can decode to a
// huge bitmap (a 311 KB PNG of zeros is 6324×6324 16-bit RGBA, 305 MB), so
// the header is read first and the image refused by its size in pixels and
// by the bytes its decoded form takes, before any pixel is decoded.
const (
	MaxAvatarBytes = 5 << 20
	// MaxAvatarSide is the side of the largest square accepted; the cap is
	// on the area, MaxAvatarSide² pixels (16 MP), whatever the shape.
	MaxAvatarSide   = 4096
	MaxAvatarPixels = MaxAvatarSide * MaxAvatarSide
	// MaxAvatarDecoded caps the decoded bitmap: 16 MP at 4 bytes a pixel
	// (8-bit RGBA), so 16-bit images may have half as many pixels.
	MaxAvatarDecoded = MaxAvatarPixels * 4
	AvatarSize       = 256
	// AvatarURLPrefix is the public path under which avatars are served.
	AvatarURLPrefix = "/avatars/"
	// MaxJPEGScans caps the scans of a JPEG. Each scan makes the decoder
	// visit every block of its components again, however little it holds,
	// so a 91 KB file of 2,000 empty scans costs 20 s of CPU. Encoders write
	// far fewer: baseline one (or one per component), libjpeg's progressive
	// script 10 for colour, 6 for grey and 18 for CMYK.
	MaxJPEGScans = 32
	// decodeChunk is the most a decoder reads at once, so that it sees a
	// cancelled request within that many bytes (ctxReader).
	decodeChunk = 4 << 10
)

// Avatar refusals shown to the uploader.
var (
	ErrNotImage       = errs.New(errs.InvalidImage, "The avatar must be a PNG, JPEG, GIF or WebP image.")
	ErrAvatarTooLarge = errs.New(errs.TooLarge, "The avatar must be at most 5 MB.")
	ErrJPEGScans      = errs.Errorf(errs.InvalidImage,
		"The JPEG is made of more than %d scans, which no camera or editor writes. Please save it again and upload that copy.", MaxJPEGScans)
)

// DefaultAvatarDecodes is how many avatars NewAvatars lets decode at once:
// each may take MaxAvatarDecoded bytes and a core.
const DefaultAvatarDecodes = 2

var avatarName = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png)$`)

// AvatarDir is where avatar files live inside the data directory.
func AvatarDir(dataDir string) string { return filepath.Join(dataDir, "avatars") }

// AvatarFile maps a served name to its file and content type; ok is false
// for any name this package could not have written.
func AvatarFile(dir, name string) (path, contentType string, ok bool) {
	if !avatarName.MatchString(name) {
		return "", "", false
	}
	contentType = "image/jpeg"
	if strings.HasSuffix(name, ".png") {
		contentType = "image/png"
	}
	return filepath.Join(dir, name), contentType, true
}

// Querier is what StoredFiles reads through: a database, a snapshot of
// one, or a transaction.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// StoredFiles lists the files of the data directory that the database's
// rows point at (every profile's avatar), as slash-separated paths relative
// to the data directory ("avatars/….jpg"): what a backup of the database
// must carry beside it.
func StoredFiles(ctx context.Context, q Querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT avatar_url FROM profiles WHERE avatar_url IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("list avatars: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var url string
		if err := rows.Scan(&url); err != nil {
			return nil, fmt.Errorf("list avatars: %w", err)
		}
		if name := strings.TrimPrefix(url, AvatarURLPrefix); avatarName.MatchString(name) {
			out = append(out, "avatars/"+name)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list avatars: %w", err)
	}
	return out, nil
}

// OpenAvatar opens a stored avatar by its public name for serving, with its
// information and content type; any error means there is no such avatar.
func OpenAvatar(ctx context.Context, files storage.Store, name string) (storage.Object, storage.Info, string, error) {
	key, contentType, ok := AvatarKey(name)
	if !ok {
		return nil, storage.Info{}, "", notFound("Avatar")
	}
	f, info, err := files.Open(ctx, key)
	if err != nil {
		return nil, storage.Info{}, "", fmt.Errorf("open avatar: %w", err)
	}
	return f, info, contentType, nil
}

// RenderAvatar decodes an uploaded image, crops it to the centred square and
// scales it to AvatarSize, then encodes it anew: PNG when it has transparency,
// JPEG otherwise. It returns the bytes and the file extension. It does not
// bound concurrent decodes; Avatars.Render does.
func RenderAvatar(r io.Reader) ([]byte, string, error) {
	raw, err := readAvatar(r)
	if err != nil {
		return nil, "", err
	}
	return renderAvatar(context.Background(), raw)
}

// readAvatar reads an upload of at most MaxAvatarBytes and checks from its
// header alone that decoding it stays within the caps.
func readAvatar(r io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxAvatarBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read avatar upload: %w", err)
	}
	if len(raw) > MaxAvatarBytes {
		return nil, ErrAvatarTooLarge
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 {
		return nil, ErrNotImage
	}
	if err := checkDecodedSize(cfg, decodedBytesPerPixel(format, cfg.ColorModel, raw)); err != nil {
		return nil, err
	}
	if format == "jpeg" && jpegScans(raw, MaxJPEGScans+1) > MaxJPEGScans {
		return nil, ErrJPEGScans
	}
	return raw, nil
}

// jpegScans counts the scans (SOS segments) of a JPEG up to its end (EOI),
// stopping at limit, without decoding: it walks the segments by their
// lengths and skips each scan's entropy-coded data up to the next marker
// (0xFF followed by anything but a stuffed zero or a restart marker). A
// malformed file is counted as far as it can be read; the decoder refuses it.
func jpegScans(raw []byte, limit int) int {
	n := 0
	for i := 2; i+1 < len(raw) && n < limit; {
		if raw[i] != 0xff {
			return n
		}
		marker := raw[i+1]
		switch {
		case marker == 0xff: // fill byte
			i++
			continue
		case marker == 0xd9: // EOI: the decoder reads no further
			return n
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd8: // no length
			i += 2
			continue
		}
		if i+4 > len(raw) {
			return n
		}
		length := int(raw[i+2])<<8 | int(raw[i+3])
		if length < 2 {
			return n
		}
		i += 2 + length
		if marker != 0xda {
			continue
		}
		n++
		for i < len(raw) {
			j := bytes.IndexByte(raw[i:], 0xff)
			if j < 0 || i+j+1 >= len(raw) {
				return n
			}
			i += j
			if next := raw[i+1]; next != 0 && (next < 0xd0 || next > 0xd7) {
				break
			}
			i += 2
		}
	}
	return n
}

// checkDecodedSize refuses an image whose pixels, or the bytes its decoder
// allocates (bpp per pixel), exceed the caps, telling the largest square
// this kind of image may be.
func checkDecodedSize(cfg image.Config, bpp float64) error {
	// Sides are below 2³¹ (the decoders refuse more): the products are
	// exact enough in a float64 and never overflow.
	pixels := float64(cfg.Width) * float64(cfg.Height)
	if pixels <= MaxAvatarPixels && pixels*bpp <= MaxAvatarDecoded {
		return nil
	}
	side := min(MaxAvatarSide, int(math.Sqrt(MaxAvatarDecoded/bpp)))
	return errs.Errorf(errs.TooLarge, "The image is too large: at most %d × %d pixels.", side, side)
}

// decodedBytesPerPixel is about what the decoder of format allocates per
// pixel of an image with color model m, erring high (measured with the
// standard library's and x/image's decoders). Some formats cost more than
// their bitmap: an interlaced PNG is decoded pass by pass and then merged,
// a progressive JPEG keeps every DCT coefficient until the end, and WebP
// decodes through intermediate buffers.
func decodedBytesPerPixel(format string, m color.Model, raw []byte) float64 {
	switch format {
	case "jpeg":
		return jpegBytesPerPixel(raw)
	case "webp":
		switch m {
		case color.YCbCrModel: // lossy: 4:2:0 planes
			return 2
		case color.NYCbCrAModel: // lossy with an alpha plane decoded as VP8L
			return 7
		default: // lossless: 32-bit pixels, then NRGBA
			return 5
		}
	case "png":
		bpp := bitmapBytesPerPixel(m)
		// IHDR's interlace method is byte 28 of the file.
		if len(raw) > 28 && raw[28] != 0 {
			bpp *= 2
		}
		return bpp
	default: // gif: the first frame, paletted
		return bitmapBytesPerPixel(m)
	}
}

// bitmapBytesPerPixel is the size of a pixel of an image of model m; a
// model not listed counts as 16-bit RGBA, the widest.
func bitmapBytesPerPixel(m color.Model) float64 {
	if _, ok := m.(color.Palette); ok { // a slice: it must not reach == below
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	default:
		return 8
	}
}

// jpegBytesPerPixel reads the frame header (SOF) of a JPEG and returns what
// image/jpeg allocates per pixel: the planes (3 bytes for colour whatever
// the subsampling, as odd sampling factors are decoded at full size; 8 for
// CMYK, converted at the end) plus, for a progressive JPEG, 4 bytes per
// coefficient of every component at its sampling: a 197 KB progressive
// 4:4:4 JPEG of 4096×4096 pixels allocates 240 MB.
func jpegBytesPerPixel(raw []byte) float64 {
	const worst = 8 + 4*4
	for i := 2; i+4 <= len(raw); {
		if raw[i] != 0xff {
			return worst
		}
		marker := raw[i+1]
		if marker == 0xff { // fill byte
			i++
			continue
		}
		if marker == 0x01 || marker >= 0xd0 && marker <= 0xd8 { // no length
			i += 2
			continue
		}
		length := int(raw[i+2])<<8 | int(raw[i+3])
		if length < 2 { // the length counts its own two bytes
			return worst
		}
		sof := marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc
		if !sof {
			i += 2 + length
			continue
		}
		// SOF: precision, height, width, component count, then per component
		// its id, sampling factors (H<<4 | V) and quantisation table.
		seg := raw[i+4 : min(len(raw), i+2+length)]
		if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
			return worst
		}
		n := int(seg[5])
		hMax, vMax := 1, 1
		for c := range n {
			hv := seg[7+3*c]
			hMax, vMax = max(hMax, int(hv>>4)), max(vMax, int(hv&15))
		}
		var samples float64 // per pixel, all components
		for c := range n {
			hv := seg[7+3*c]
			samples += float64(int(hv>>4)*int(hv&15)) / float64(hMax*vMax)
		}
		var planes float64
		switch n {
		case 1:
			planes = 1
		case 3:
			planes = 3
		case 4:
			planes = 8
		default:
			return worst
		}
		if marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce {
			return planes + 4*samples
		}
		return planes
	}
	return worst
}

// renderAvatar decodes raw, already checked by readAvatar, and makes the
// avatar, giving up when ctx ends (see decodeAvatar).
func renderAvatar(ctx context.Context, raw []byte) ([]byte, string, error) {
	src, err := decodeAvatar(ctx, bytes.NewReader(raw))
	if err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil {
		return nil, "", fmt.Errorf("scale avatar: %w", err)
	}
	b := src.Bounds()
	side := min(b.Dx(), b.Dy())
	crop := image.Rect(0, 0, side, side).Add(image.Pt(b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2))
	dst := image.NewRGBA(image.Rect(0, 0, AvatarSize, AvatarSize))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, crop, draw.Src, nil)
	var out bytes.Buffer
	if dst.Opaque() {
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: 88})
		return out.Bytes(), "jpg", wrapEncode(err)
	}
	err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, dst)
	return out.Bytes(), "png", wrapEncode(err)
}

// decodeAvatar decodes an image, stopping when ctx ends. The standard
// decoders take no context and cannot be interrupted in the middle of their
// work, but they read their input as they go; reading it through ctxReader
// ends a decode at the next read after the request is cancelled, with
// ctx's error. What runs without reading (the inverse DCT of a progressive
// JPEG after its last scan, and the scaling) is bounded by the pixel caps and
// MaxJPEGScans, not by the request.
func decodeAvatar(ctx context.Context, r io.Reader) (image.Image, error) {
	src, _, err := image.Decode(ctxReader{ctx: ctx, r: r})
	if cerr := ctx.Err(); cerr != nil {
		return nil, fmt.Errorf("decode avatar: %w", cerr)
	}
	if err != nil {
		return nil, ErrNotImage
	}
	return src, nil
}

// ctxReader reads at most decodeChunk bytes at a time and fails once ctx
// has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) > decodeChunk {
		p = p[:decodeChunk]
	}
	return c.r.Read(p)
}

func wrapEncode(err error) error {
	if err != nil {
		return fmt.Errorf("encode avatar: %w", err)
	}
	return nil
}

// SetAvatar renders the upload, stores it under a random name in files,
// points the profile at it and takes the previous file out of service. It
// does not bound concurrent decodes; a server uses Avatars.Set.
func SetAvatar(ctx context.Context, db *store.DB, files storage.Store, userID string, upload io.Reader) (*Profile, error) {
	data, ext, err := RenderAvatar(upload)
	if err != nil {
		return nil, err
	}
	return storeAvatar(ctx, db, files, userID, data, ext)
}

// AvatarKey is the storage key of a served avatar name, with its content
// type; ok is false for any name this package could not have written. On
// the local backend the key is the file AvatarFile names, so the data
// directory's layout is the same whichever way the files are reached.
func AvatarKey(name string) (key, contentType string, ok bool) {
	if !avatarName.MatchString(name) {
		return "", "", false
	}
	contentType = "image/jpeg"
	if strings.HasSuffix(name, ".png") {
		contentType = "image/png"
	}
	return AvatarKeyPrefix + name, contentType, true
}

// AvatarKeyPrefix is the folder of the avatars' storage keys;
// ReplacedAvatarKeyPrefix that of the replaced ones waiting to be deleted
// (ReplacedAvatarDir on disk).
const (
	AvatarKeyPrefix         = "avatars/"
	ReplacedAvatarKeyPrefix = AvatarKeyPrefix + ".replaced/"
	replacedPrefix          = ReplacedAvatarKeyPrefix
)

// storeAvatar stores a rendered avatar under a random name, points the
// profile at it and takes the previous file out of service. The profile
// points at the file only once it is stored whole (storage.Store.Put).
func storeAvatar(ctx context.Context, db *store.DB, files storage.Store, userID string, data []byte, ext string) (*Profile, error) {
	var rnd [16]byte
	_, _ = rand.Read(rnd[:]) // crypto/rand.Read never fails on supported platforms
	name := hex.EncodeToString(rnd[:]) + "." + ext
	key, contentType, _ := AvatarKey(name)
	if err := files.Put(ctx, key, bytes.NewReader(data), int64(len(data)), contentType); err != nil {
		return nil, fmt.Errorf("store avatar: %w", err)
	}
	url := AvatarURLPrefix + name
	old, err := setAvatarURL(ctx, db, userID, &url)
	if err != nil {
		_ = files.Delete(context.WithoutCancel(ctx), key)
		return nil, err
	}
	removeAvatarFile(ctx, files, old)
	return GetProfile(ctx, db, userID)
}

// RemoveAvatar clears the profile's avatar and takes its file out of service.
func RemoveAvatar(ctx context.Context, db *store.DB, files storage.Store, userID string) (*Profile, error) {
	old, err := setAvatarURL(ctx, db, userID, nil)
	if err != nil {
		return nil, err
	}
	removeAvatarFile(ctx, files, old)
	return GetProfile(ctx, db, userID)
}

// ReplacedAvatarKeep is how long a replaced or removed avatar's file is
// kept, out of service, before it is deleted (see removeAvatarFile).
const ReplacedAvatarKeep = time.Hour

// ReplacedAvatarDir is where replaced avatars wait to be deleted, inside the
// avatar directory dir. Nothing there is served.
func ReplacedAvatarDir(dir string) string { return filepath.Join(dir, ".replaced") }

// removeAvatarFile takes a replaced or removed avatar out of service at
// once: its file moves out of the served folder and is deleted after
// ReplacedAvatarKeep. A backup whose database snapshot was taken just before
// the change still names the file, and finds it there (backup.Create): the
// files a snapshot names are all in its archive however quickly members
// change their pictures. A failure only leaves an unreferenced file behind,
// so it is not reported to the member. The database change is made, so the
// request's end does not stop this.
func removeAvatarFile(ctx context.Context, files storage.Store, url *string) {
	if url == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	name := strings.TrimPrefix(*url, AvatarURLPrefix)
	key, _, ok := AvatarKey(name)
	if !ok {
		return
	}
	if files.Move(ctx, key, replacedPrefix+name) != nil {
		_ = files.Delete(ctx, key)
	}
	sweepReplacedAvatars(ctx, files, time.Now())
}

// sweepReplacedAvatars deletes the replaced avatars kept longer than
// ReplacedAvatarKeep.
func sweepReplacedAvatars(ctx context.Context, files storage.Store, now time.Time) {
	var old []string
	_ = files.List(ctx, replacedPrefix, func(i storage.Info) error {
		if now.Sub(i.ModTime) > ReplacedAvatarKeep {
			old = append(old, i.Key)
		}
		return nil
	})
	for _, k := range old {
		_ = files.Delete(ctx, k)
	}
}

// OrphanAge is how old an avatar file no profile names must be before
// SweepAvatars deletes it: older than any upload still being stored or any
// backup's window, young enough that a failed change does not keep files
// for long.
const OrphanAge = 24 * time.Hour

// SweepAvatars deletes the avatar files that no profile names and that are
// older than OrphanAge (left by a process that stopped between storing a
// file and pointing the profile at it, or by a failed deletion), and the
// replaced ones kept longer than ReplacedAvatarKeep. It reports how many it
// deleted. Every instance may run it.
func SweepAvatars(ctx context.Context, db *store.DB, files storage.Store, now time.Time) (int, error) {
	named, err := StoredFiles(ctx, db.Read)
	if err != nil {
		return 0, err
	}
	keep := make(map[string]bool, len(named))
	for _, k := range named {
		keep[k] = true
	}
	var orphans []string
	if err := files.List(ctx, AvatarKeyPrefix, func(i storage.Info) error {
		if !storage.InFolder(i.Key) && !keep[i.Key] && now.Sub(i.ModTime) > OrphanAge {
			orphans = append(orphans, i.Key)
		}
		return nil
	}); err != nil {
		return 0, fmt.Errorf("list avatars: %w", err)
	}
	// A profile may have been pointed at a file since the list was read.
	named, err = StoredFiles(ctx, db.Read)
	if err != nil {
		return 0, err
	}
	for _, k := range named {
		keep[k] = true
	}
	n := 0
	for _, k := range orphans {
		if keep[k] {
			continue
		}
		if err := files.Delete(ctx, k); err != nil {
			return n, err
		}
		n++
	}
	sweepReplacedAvatars(ctx, files, now)
	return n, nil
}
