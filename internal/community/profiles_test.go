package community

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func ptr(s string) *string { return &s }

func TestProfileUpdateAndLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "ada@example.com")
		p, err := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr("  Ada Lovelace "), Bio: ptr(" Engines ")})
		if err != nil {
			t.Fatal(err)
		}
		if p.FullName != "Ada Lovelace" || p.Bio != "Engines" || p.Email != "ada@example.com" || p.Phone != "" {
			t.Fatalf("saved %+v", p)
		}
		// Fields left out keep their value.
		p, err = UpdateProfile(ctx, db, u, ProfileUpdate{Company: ptr("Analytical")})
		if err != nil || p.FullName != "Ada Lovelace" || p.Company != "Analytical" {
			t.Fatalf("partial update: %+v %v", p, err)
		}
		limits := []struct {
			field, message string
			max            int
			set            func(*ProfileUpdate, *string)
		}{
			{"full_name", "Full name must be at most 120 characters.", 120, func(u *ProfileUpdate, s *string) { u.FullName = s }},
			{"bio", "Bio must be at most 2000 characters.", 2000, func(u *ProfileUpdate, s *string) { u.Bio = s }},
			{"phone", "Phone must be at most 40 characters.", 40, func(u *ProfileUpdate, s *string) { u.Phone = s }},
			{"location", "Location must be at most 120 characters.", 120, func(u *ProfileUpdate, s *string) { u.Location = s }},
			{"company", "Company must be at most 120 characters.", 120, func(u *ProfileUpdate, s *string) { u.Company = s }},
			{"job_title", "Job title must be at most 120 characters.", 120, func(u *ProfileUpdate, s *string) { u.JobTitle = s }},
		}
		for _, l := range limits {
			var upd ProfileUpdate
			// Multi-byte characters: the limit counts characters, as the schema does.
			l.set(&upd, ptr(strings.Repeat("é", l.max)))
			if _, err := UpdateProfile(ctx, db, u, upd); err != nil {
				t.Errorf("%s at the limit refused: %v", l.field, err)
			}
			l.set(&upd, ptr(strings.Repeat("é", l.max+1)))
			_, err := UpdateProfile(ctx, db, u, upd)
			wantInvalid(t, err, l.field, l.message)
		}
		// A refused update changes nothing, not even the fields that were fine.
		before, _ := GetProfile(ctx, db, u)
		_, err = UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr("New"), Phone: ptr(strings.Repeat("1", 41))})
		wantInvalid(t, err, "phone", "Phone must be at most 40 characters.")
		after, _ := GetProfile(ctx, db, u)
		if after.FullName != before.FullName {
			t.Fatal("a refused update was half-written")
		}
		_, err = GetProfile(ctx, db, store.NewID())
		wantCode(t, err, errs.NotFound)
	})
}

func pngBytes(t testing.TB, w, h int, alpha uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 200, alpha})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), 80, uint8(y), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAvatarUpload(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		root := t.TempDir()
		dir, files := AvatarDir(root), storage.NewLocal(root)
		u := addUser(t, db, "pic@example.com")

		// A text file is refused whatever it is called.
		_, err := SetAvatar(ctx, db, files, u, strings.NewReader("hello, I am not a picture"))
		wantErr(t, err, ErrNotImage)
		// Oversize input is refused before decoding.
		big := append(pngBytes(t, 8, 8, 255), make([]byte, MaxAvatarBytes)...)
		_, err = SetAvatar(ctx, db, files, u, bytes.NewReader(big))
		wantErr(t, err, ErrAvatarTooLarge)
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("refused uploads left files: %v", entries)
		}

		// An opaque JPEG becomes a 256 px JPEG.
		src := jpegBytes(t, 640, 480)
		p, err := SetAvatar(ctx, db, files, u, bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		first := checkAvatar(t, dir, p, "jpeg")
		// A PNG with transparency stays PNG, replaces the old file.
		p, err = SetAvatar(ctx, db, files, u, bytes.NewReader(pngBytes(t, 300, 900, 128)))
		if err != nil {
			t.Fatal(err)
		}
		second := checkAvatar(t, dir, p, "png")
		if _, err := os.Stat(first); !os.IsNotExist(err) {
			t.Fatal("the previous avatar file was not removed")
		}
		// Removing clears the profile and deletes the file.
		p, err = RemoveAvatar(ctx, db, files, u)
		if err != nil || p.AvatarURL != nil {
			t.Fatalf("remove: %+v %v", p, err)
		}
		if _, err := os.Stat(second); !os.IsNotExist(err) {
			t.Fatal("the removed avatar's file is still there")
		}
	})
}

// checkAvatar decodes the stored file and returns its path.
func checkAvatar(t *testing.T, dir string, p *Profile, format string) string {
	t.Helper()
	if p.AvatarURL == nil || !strings.HasPrefix(*p.AvatarURL, AvatarURLPrefix) {
		t.Fatalf("avatar_url %v", p.AvatarURL)
	}
	path, _, ok := AvatarFile(dir, strings.TrimPrefix(*p.AvatarURL, AvatarURLPrefix))
	if !ok {
		t.Fatalf("stored name %s is not servable", *p.AvatarURL)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	cfg, got, err := image.DecodeConfig(f)
	if err != nil || got != format || cfg.Width != AvatarSize || cfg.Height != AvatarSize {
		t.Fatalf("stored avatar %s %dx%d %v, want %s %dx%d", got, cfg.Width, cfg.Height, err, format, AvatarSize, AvatarSize)
	}
	return path
}

func TestAvatarFileNames(t *testing.T) {
	for _, bad := range []string{"../tribe.db", "x.png", "0123456789abcdef0123456789abcdef.svg", "0123456789ABCDEF0123456789abcdef.png", ""} {
		if _, _, ok := AvatarFile("/d", bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, ct, ok := AvatarFile("/d", "0123456789abcdef0123456789abcdef.png"); !ok || ct != "image/png" {
		t.Errorf("good name refused")
	}
}
