package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
