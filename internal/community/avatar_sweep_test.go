package community

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestSweepAvatarsDeletesOnlyOldOrphans: on both file stores, an avatar
// file no profile names is deleted once older than a day; one a profile
// names, and a young orphan (an upload being stored), stay.
func TestSweepAvatarsDeletesOnlyOldOrphans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		storagetest.Each(t, func(t *testing.T, files storage.Store) {
			ctx := context.Background()
			u := addUser(t, db, "sweep-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
			p, err := SetAvatar(ctx, db, files, u, bytes.NewReader(pngBytes(t, 40, 40, 255)))
			if err != nil {
				t.Fatal(err)
			}
			named := AvatarKeyPrefix + strings.TrimPrefix(*p.AvatarURL, AvatarURLPrefix)
			orphan := AvatarKeyPrefix + "0123456789abcdef0123456789abcdef.jpg"
			if err := files.Put(ctx, orphan, strings.NewReader("left behind"), -1, "image/jpeg"); err != nil {
				t.Fatal(err)
			}
			if n, err := SweepAvatars(ctx, db, files, time.Now()); err != nil || n != 0 {
				t.Fatalf("sweep now: %d, %v; a young orphan must stay", n, err)
			}
			n, err := SweepAvatars(ctx, db, files, time.Now().Add(OrphanAge+time.Hour))
			if err != nil || n != 1 {
				t.Fatalf("sweep a day on: %d, %v; want the orphan deleted", n, err)
			}
			if _, err := files.Stat(ctx, orphan); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("orphan still there: %v", err)
			}
			if _, err := files.Stat(ctx, named); err != nil {
				t.Errorf("the profile's avatar was swept: %v", err)
			}
		})
	})
}
