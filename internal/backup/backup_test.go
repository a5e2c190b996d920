package backup

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func count(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM waitlist`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBackupWhileWritingRestoresAConsistentSite(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	db := storetest.Open(t, "", dataDir)
	if err := os.MkdirAll(filepath.Join(dataDir, "avatars"), 0o700); err != nil {
		t.Fatal(err)
	}
	avatar := []byte("\x89PNG fake avatar bytes")
	if err := os.WriteFile(filepath.Join(dataDir, "avatars", "0123456789abcdef0123456789abcdef.png"), avatar, 0o600); err != nil {
		t.Fatal(err)
	}

	// A writer keeps adding wait-list rows, each in its own transaction,
	// before, during and after the backup.
	var written atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_, err := db.Write.ExecContext(ctx,
				`INSERT INTO waitlist (id, full_name, email, email_normalized, created_at) VALUES ($1, 'Ada', $2, $2, $3)`,
				store.NewID(), store.NewID()+"@example.com", store.Now())
			if err != nil {
				t.Errorf("write %d: %v", i, err)
				return
			}
			written.Add(1)
		}
	})
	for written.Load() < 50 {
		time.Sleep(time.Millisecond)
	}
	before := written.Load()
	var archive bytes.Buffer
	m, err := Create(ctx, db, dataDir, &archive)
	after := written.Load()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !m.Database || m.Files != 1 || m.Engine != "sqlite" || m.SchemaVersion == 0 {
		t.Fatalf("manifest %+v", m)
	}
	if after == before {
		t.Log("no write landed during the backup; the test still checks the snapshot")
	}

	restored := filepath.Join(t.TempDir(), "restored")
	if _, err := Restore(bytes.NewReader(archive.Bytes()), restored); err != nil {
		t.Fatal(err)
	}
	if res, err := store.IntegrityCheck(ctx, store.SQLitePath(restored)); err != nil || res != "ok" {
		t.Fatalf("integrity of the restored database: %q %v", res, err)
	}
	rdb := storetest.Open(t, "", restored)
	n := int64(count(t, rdb))
	if n < before || n > after {
		t.Fatalf("restored %d rows; the backup ran while %d to %d were written", n, before, after)
	}
	got, err := os.ReadFile(filepath.Join(restored, "avatars", "0123456789abcdef0123456789abcdef.png"))
	if err != nil || !bytes.Equal(got, avatar) {
		t.Fatalf("avatar not restored: %v", err)
	}

	// A restore never mixes two sites.
	if _, err := Restore(bytes.NewReader(archive.Bytes()), restored); err == nil {
		t.Fatal("restoring into a data directory that is not empty must be refused")
	}
}

func TestRestoreRefusesEntriesOutsideTheDataDirectory(t *testing.T) {
	for _, name := range []string{"files/../escape.txt", "files/../../etc/passwd", "other.txt", "files/tribe.db"} {
		var b bytes.Buffer
		writeArchive(t, &b, name)
		if _, err := Restore(&b, filepath.Join(t.TempDir(), "site")); err == nil {
			t.Errorf("%s: restored", name)
		}
	}
}

func TestBackupOnPostgresHoldsTheFiles(t *testing.T) {
	dataDir := t.TempDir()
	db := storetest.Open(t, storetest.NewPostgresSchema(t), dataDir)
	if err := os.WriteFile(filepath.Join(dataDir, "note.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	m, err := Create(context.Background(), db, dataDir, &archive)
	if err != nil || m.Database || m.Files != 1 || m.Engine != "postgres" {
		t.Fatalf("%+v %v", m, err)
	}
}
