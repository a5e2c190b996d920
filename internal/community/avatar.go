package community

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	_ "golang.org/x/image/webp"
	_ "image/gif" // accepted avatar formats register their decoders

	"golang.org/x/image/draw"

	"tribe/internal/store"
)

// Avatar limits. The pixel cap stops a small file that decodes to a huge
// bitmap from exhausting memory.
const (
	MaxAvatarBytes  = 5 << 20
	MaxAvatarPixels = 40_000_000
	AvatarSize      = 256
	// AvatarURLPrefix is the public path under which avatars are served.
	AvatarURLPrefix = "/avatars/"
)

// Avatar refusals shown to the uploader.
const (
	ErrNotImage       Problem = "The avatar must be a PNG, JPEG, GIF or WebP image."
	ErrAvatarTooLarge Problem = "The avatar must be at most 5 MB."
)

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

// RenderAvatar decodes an uploaded image, crops it to the centred square and
// scales it to AvatarSize, then encodes it anew: PNG when it has transparency,
// JPEG otherwise. It returns the bytes and the file extension.
func RenderAvatar(r io.Reader) ([]byte, string, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxAvatarBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read avatar upload: %w", err)
	}
	if len(raw) > MaxAvatarBytes {
		return nil, "", ErrAvatarTooLarge
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width*cfg.Height > MaxAvatarPixels {
		return nil, "", ErrNotImage
	}
	src, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, "", ErrNotImage
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

func wrapEncode(err error) error {
	if err != nil {
		return fmt.Errorf("encode avatar: %w", err)
	}
	return nil
}

// SetAvatar renders the upload, stores it under a random name in dir, points
// the profile at it and deletes the previous file.
func SetAvatar(ctx context.Context, db *store.DB, dir, userID string, upload io.Reader) (*Profile, error) {
	data, ext, err := RenderAvatar(upload)
	if err != nil {
		return nil, err
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:]) // crypto/rand.Read never fails on supported platforms
	name := hex.EncodeToString(rnd[:]) + "." + ext
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("create avatar directory: %w", err)
	}
	path := filepath.Join(dir, name)
	if err := writeFileAtomic(path, data); err != nil {
		return nil, err
	}
	url := AvatarURLPrefix + name
	old, err := setAvatarURL(ctx, db, userID, &url)
	if err != nil {
		_ = os.Remove(path)
		return nil, err
	}
	removeAvatarFile(dir, old)
	return GetProfile(ctx, db, userID)
}

// RemoveAvatar clears the profile's avatar and deletes its file.
func RemoveAvatar(ctx context.Context, db *store.DB, dir, userID string) (*Profile, error) {
	old, err := setAvatarURL(ctx, db, userID, nil)
	if err != nil {
		return nil, err
	}
	removeAvatarFile(dir, old)
	return GetProfile(ctx, db, userID)
}

// removeAvatarFile deletes a stored avatar; a failure only leaves an
// unreferenced file behind, so it is not reported to the member.
func removeAvatarFile(dir string, url *string) {
	if url == nil {
		return
	}
	if path, _, ok := AvatarFile(dir, strings.TrimPrefix(*url, AvatarURLPrefix)); ok {
		_ = os.Remove(path)
	}
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".upload-*")
	if err != nil {
		return fmt.Errorf("store avatar: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("store avatar: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("store avatar: %w", err)
	}
	return nil
}
