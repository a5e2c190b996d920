package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tribe/internal/config"
	"tribe/internal/storage/storagetest"
)

// TestStorageMigrateCopiesOnce: `tribe storage migrate` copies the data
// directory's avatars (not the database, not replaced avatars) to the
// bucket and says so; run again, it copies nothing.
func TestStorageMigrateCopiesOnce(t *testing.T) {
	srv := storagetest.StartT(t)
	ctx := context.Background()
	bucket, err := srv.NewBucket(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"avatars/0123456789abcdef0123456789abcdef.jpg":           "jpeg bytes",
		"avatars/fedcba9876543210fedcba9876543210.png":           "png bytes",
		"avatars/.replaced/00000000000000000000000000000000.jpg": "old",
		"tribe.db": "database",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"TRIBE_DATA_DIR":             dir,
		"TRIBE_STORAGE_URL":          "s3://" + bucket + "?endpoint=http://" + srv.Endpoint + "&region=" + storagetest.Region + "&path_style=1",
		"TRIBE_S3_ACCESS_KEY_ID":     storagetest.AccessKeyID,
		"TRIBE_S3_SECRET_ACCESS_KEY": storagetest.SecretAccessKey,
	}
	cfg, err := config.Load(func(k string) string { return env[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := migrateFiles(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "copied 2 files (19 bytes), each checked by size and SHA-256; 0 were already there") {
		t.Fatalf("first run said:\n%s", out.String())
	}
	out.Reset()
	if err := migrateFiles(ctx, cfg, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "copied 0 files (0 bytes), each checked by size and SHA-256; 2 were already there") {
		t.Fatalf("second run said:\n%s", out.String())
	}

	// A bucket that does not exist, and no bucket at all, are refused plainly.
	env["TRIBE_STORAGE_URL"] = strings.Replace(env["TRIBE_STORAGE_URL"], bucket, "no-such-bucket", 1)
	cfg, _ = config.Load(func(k string) string { return env[k] }, "")
	if err := migrateFiles(ctx, cfg, &out); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing bucket: %v", err)
	}
	cfg.S3 = nil
	if err := migrateFiles(ctx, cfg, &out); err == nil || !strings.Contains(err.Error(), "TRIBE_STORAGE_URL is not set") {
		t.Errorf("no bucket configured: %v", err)
	}
}

// TestBackupOnS3SaysWhereTheFilesAre: with the uploads in a bucket, a
// backup does not warn that each avatar the database names is missing from
// the data directory; it says the files are in the bucket.
func TestBackupOnS3SaysWhereTheFilesAre(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	env := map[string]string{
		"TRIBE_DATA_DIR":             dir,
		"TRIBE_STORAGE_URL":          "s3://tribe-files?endpoint=http://127.0.0.1:1&region=us-east-1&path_style=1",
		"TRIBE_S3_ACCESS_KEY_ID":     "key",
		"TRIBE_S3_SECRET_ACCESS_KEY": "secret",
	}
	cfg, err := config.Load(func(k string) string { return env[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	db, _, err := openMigrated(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ('u1', 'a@example.com', 'a@example.com', 'x')`,
		`INSERT INTO profiles (id, email, full_name, avatar_url) VALUES ('u1', 'a@example.com', 'A', '/avatars/0123456789abcdef0123456789abcdef.jpg')`,
	} {
		if _, err := db.Write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_ = db.Close()
	var out bytes.Buffer
	if err := writeBackup(ctx, cfg, filepath.Join(t.TempDir(), "b.tar.gz"), false, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "warning") || !strings.Contains(out.String(), "uploaded files are in the bucket tribe-files") {
		t.Fatalf("backup said:\n%s", out.String())
	}
}

// TestServeRefusesABucketItCannotUse: serve stops at start, saying why,
// when the bucket of TRIBE_STORAGE_URL does not exist.
func TestServeRefusesABucketItCannotUse(t *testing.T) {
	srv := storagetest.StartT(t)
	t.Setenv("TRIBE_DATA_DIR", t.TempDir())
	t.Setenv("TRIBE_ADDR", "127.0.0.1:0")
	t.Setenv("TRIBE_STORAGE_URL", "s3://no-such-bucket?endpoint=http://"+srv.Endpoint+"&region="+storagetest.Region+"&path_style=1")
	t.Setenv("TRIBE_S3_ACCESS_KEY_ID", storagetest.AccessKeyID)
	t.Setenv("TRIBE_S3_SECRET_ACCESS_KEY", storagetest.SecretAccessKey)
	var out, errb bytes.Buffer
	if code := run([]string{"serve"}, &out, &errb); code == 0 || !strings.Contains(out.String()+errb.String(), "the bucket does not exist") {
		t.Fatalf("serve on a missing bucket: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
