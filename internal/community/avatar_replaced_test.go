package community

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestReplacedAvatarIsKeptOutOfServiceForAnHour: a backup whose snapshot
// was taken just before a member changed their picture names the old file;
// deleting it at once left that backup without it. The old file leaves
// service at once (it is no longer served) and is deleted an hour later.
func TestReplacedAvatarIsKeptOutOfServiceForAnHour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		root := t.TempDir()
		dir, files := AvatarDir(root), storage.NewLocal(root)
		u := addUser(t, db, "ada@example.com")
		set := func() string {
			p, err := SetAvatar(ctx, db, files, u, bytes.NewReader(pngBytes(t, 40, 40, 255)))
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimPrefix(*p.AvatarURL, AvatarURLPrefix)
		}
		first := set()
		second := set()
		if _, err := os.Stat(filepath.Join(dir, first)); !os.IsNotExist(err) {
			t.Fatalf("the replaced avatar is still served: %v", err)
		}
		kept := filepath.Join(ReplacedAvatarDir(dir), first)
		if _, err := os.Stat(kept); err != nil {
			t.Fatalf("the replaced avatar was deleted at once: %v", err)
		}
		if files, err := StoredFiles(ctx, db.Read); err != nil || len(files) != 1 || files[0] != "avatars/"+second {
			t.Fatalf("stored files: %v %v", files, err)
		}

		// An hour on, the next change deletes it; the one just replaced stays.
		past := time.Now().Add(-ReplacedAvatarKeep - time.Minute)
		if err := os.Chtimes(kept, past, past); err != nil {
			t.Fatal(err)
		}
		set()
		if _, err := os.Stat(kept); !os.IsNotExist(err) {
			t.Fatalf("a replaced avatar older than %v is still kept: %v", ReplacedAvatarKeep, err)
		}
		if _, err := os.Stat(filepath.Join(ReplacedAvatarDir(dir), second)); err != nil {
			t.Fatalf("the avatar replaced just now is gone: %v", err)
		}
		if _, err := RemoveAvatar(ctx, db, files, u); err != nil {
			t.Fatal(err)
		}
		if files, _ := StoredFiles(ctx, db.Read); len(files) != 0 {
			t.Fatalf("stored files after removal: %v", files)
		}
	})
}
