package community

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"os"
	"path/filepath"
	"testing"

	"tribe/internal/errs"
)

// FuzzRenderAvatar feeds arbitrary uploads to the avatar path: the header
// checks, the decoders of the four formats and the scaler. Nothing may
// panic; an upload is refused as no image, as too large, or becomes a
// 256×256 PNG or JPEG.
func FuzzRenderAvatar(f *testing.F) {
	seeds := [][]byte{
		pngBytes(f, 3, 2, 255), pngBytes(f, 2, 5, 10), jpegBytes(f, 9, 4),
		jpegHeader(f, 4096, 4096, true), jpegHeader(f, 100, 100, true), jpegHeader(f, 4096, 4096, false),
		[]byte("GIF89a"), []byte("\x89PNG\r\n\x1a\n"), []byte("RIFF\x00\x00\x00\x00WEBPVP8 "), {0xff, 0xd8, 0xff, 0xc2, 0, 0},
		bombPNG(f, 3000, 3000, 6, 16), bombPNG(f, 64, 64, 3, 8), bombPNG(f, 20_000_000, 1, 0, 8),
	}
	var g bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 4, 3), color.Palette{color.Black, color.White, color.Transparent})
	if err := gif.Encode(&g, pal, nil); err != nil {
		f.Fatal(err)
	}
	seeds = append(seeds, g.Bytes())
	files, err := filepath.Glob(filepath.Join("testdata", "avatars", "*"))
	if err != nil || len(files) == 0 {
		f.Fatalf("seed images: %v %v", files, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, upload []byte) {
		out, ext, err := RenderAvatar(bytes.NewReader(upload))
		if err != nil {
			var e *errs.Error
			switch {
			case errors.Is(err, ErrNotImage), errors.Is(err, ErrAvatarTooLarge):
			case errors.As(err, &e) && e.Code == errs.TooLarge:
			default:
				t.Fatalf("RenderAvatar: unexpected error %#v", err)
			}
			return
		}
		img, format, err := image.Decode(bytes.NewReader(out))
		if err != nil || img.Bounds() != image.Rect(0, 0, AvatarSize, AvatarSize) {
			t.Fatalf("rendered avatar does not decode as %d×%d: %v", AvatarSize, AvatarSize, err)
		}
		if (ext == "jpg") != (format == "jpeg") || (ext == "png") != (format == "png") {
			t.Fatalf("extension %q for a %s file", ext, format)
		}
	})
}
