package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tribe/internal/config"
	"tribe/internal/storage/storagetest"
)

// A backup taken from a serving site restores into a new data directory,
// and the restored site knows the account made before the backup.
func TestBackupWhileServingThenRestore(t *testing.T) {
	bin := buildBinary(t)
	dataDir := t.TempDir()
	base, stop := startServer(t, bin, []string{"TRIBE_DATA_DIR=" + dataDir})
	resp, err := http.Post(base+"/api/auth/signup", "application/json",
		strings.NewReader(`{"full_name":"Ada","email":"ada@example.com","password":"analytical"}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign up: %v %v", resp, err)
	}
	_ = resp.Body.Close()

	archive := filepath.Join(t.TempDir(), "site.tar.gz")
	run := func(dir string, args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "TRIBE_DATA_DIR="+dir)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tribe %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run(dataDir, "backup", archive); !strings.Contains(out, "backed up the SQLite database") {
		t.Fatalf("backup said %q", out)
	}
	if _, err := stop(); err != nil {
		t.Fatal(err)
	}

	restored := filepath.Join(t.TempDir(), "restored")
	if out := run(restored, "restore", archive); !strings.Contains(out, "restored a sqlite backup") {
		t.Fatalf("restore said %q", out)
	}
	base, _ = startServer(t, bin, []string{"TRIBE_DATA_DIR=" + restored})
	resp, err = http.Post(base+"/api/auth/signin", "application/json",
		strings.NewReader(`{"email":"ada@example.com","password":"analytical"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("sign in on the restored site: %v %v", resp, err)
	}
	_ = resp.Body.Close()
}

// On S3, `tribe backup --with-files` streams the bucket's avatars into the
// archive and `tribe restore` puts them into a new bucket: the restored
// site serves the same avatar, byte for byte. A restore into a bucket that
// already holds files is refused and writes nothing.
func TestBackupWithFilesOnS3RestoresIntoANewBucket(t *testing.T) {
	bin := buildBinary(t)
	s3 := storagetest.StartT(t)
	bucketEnv := func(dataDir string) []string {
		bucket, err := s3.NewBucket(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return []string{"TRIBE_DATA_DIR=" + dataDir,
			"TRIBE_STORAGE_URL=s3://" + bucket + "?endpoint=http://" + s3.Endpoint + "&region=" + storagetest.Region + "&path_style=1",
			"TRIBE_S3_ACCESS_KEY_ID=" + storagetest.AccessKeyID, "TRIBE_S3_SECRET_ACCESS_KEY=" + storagetest.SecretAccessKey}
	}
	tribe := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	site := bucketEnv(t.TempDir())
	base, stop := startServer(t, bin, site)
	resp, err := http.Post(base+"/api/auth/signup", "application/json",
		strings.NewReader(`{"full_name":"Ada","email":"ada@example.com","password":"analytical"}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign up: %v %v", resp, err)
	}
	_ = resp.Body.Close()
	cookie := strings.Split(resp.Header.Get("Set-Cookie"), ";")[0]
	form, contentType := avatarForm(t)
	up := send(t, http.DefaultClient, "POST", base+"/api/profile/avatar", map[string]string{"Cookie": cookie, "Content-Type": contentType}, bytes.NewReader(form))
	i := bytes.Index(up.body, []byte(`"avatar_url":"/avatars/`))
	if up.status != http.StatusOK || i < 0 {
		t.Fatalf("upload: %d %s", up.status, up.body)
	}
	url := string(up.body[i+len(`"avatar_url":"`) : i+len(`"avatar_url":"`)+len("/avatars/")+36])
	avatar := send(t, http.DefaultClient, "GET", base+url, nil, nil)
	if avatar.status != http.StatusOK {
		t.Fatalf("avatar %s: %d", url, avatar.status)
	}

	archive := filepath.Join(t.TempDir(), "site.tar.gz")
	if out, err := tribe(site, "backup", "--with-files", archive); err != nil || !strings.Contains(out, "streamed from s3://") {
		t.Fatalf("backup --with-files: %v\n%s", err, out)
	}
	if _, err := stop(); err != nil {
		t.Fatal(err)
	}

	restored := bucketEnv(filepath.Join(t.TempDir(), "restored"))
	if out, err := tribe(restored, "restore", archive); err != nil || !strings.Contains(out, "restored a sqlite backup") || !strings.Contains(out, "1 files") {
		t.Fatalf("restore into a new bucket: %v\n%s", err, out)
	}
	base, _ = startServer(t, bin, restored)
	if again := send(t, http.DefaultClient, "GET", base+url, nil, nil); again.status != http.StatusOK || !bytes.Equal(again.body, avatar.body) {
		t.Fatalf("the restored site's avatar: %d, %d bytes (was %d)", again.status, len(again.body), len(avatar.body))
	}

	// The restored bucket holds files now: a second restore into it is refused.
	dir := filepath.Join(t.TempDir(), "second")
	second := append([]string{"TRIBE_DATA_DIR=" + dir}, restored[1:]...)
	if out, err := tribe(second, "restore", archive); err == nil || !strings.Contains(out, "already holds uploaded files") {
		t.Fatalf("restore into a bucket with files: %v\n%s", err, out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the refused restore left %s: %v", dir, err)
	}
}

// tribe backup takes one file and --with-files on either side of it; any
// other arguments get the usage line and exit 2. Without a bucket the flag
// changes nothing: the data directory's files are always in the archive.
func TestBackupArguments(t *testing.T) {
	t.Setenv("TRIBE_DATA_DIR", t.TempDir())
	cfg, err := config.Load(os.Getenv, "")
	if err != nil {
		t.Fatal(err)
	}
	db, _, err := openMigrated(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	for _, args := range [][]string{{}, {"a.tar.gz", "b.tar.gz"}, {"--bogus", "a.tar.gz"}, {"--with-files"}, {"-h"}} {
		var out, errb bytes.Buffer
		if code := runBackup(args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: tribe backup [--with-files] FILE") {
			t.Errorf("tribe backup %q: exit %d, %q", args, code, errb.String())
		}
	}
	dir := t.TempDir()
	for _, args := range [][]string{{filepath.Join(dir, "one.tar.gz"), "--with-files"}, {"--with-files", filepath.Join(dir, "two.tar.gz")}} {
		var out, errb bytes.Buffer
		if code := runBackup(args, &out, &errb); code != 0 || !strings.Contains(out.String(), "backed up the SQLite database") {
			t.Errorf("tribe backup %q: exit %d, %q %q", args, code, out.String(), errb.String())
		}
	}
}
