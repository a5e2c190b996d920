package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil), "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DataDir != "./data" || c.DatabaseURL != "" || c.BaseURL != "http://localhost:8080" || c.Capacity != 50 {
		t.Errorf("defaults: %+v", c)
	}
	if c.PaymentsEnabled() || c.AIEnabled() {
		t.Error("payments or AI enabled without keys")
	}
}

func TestDotenvFillsGapsAndEnvironmentWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	body := "# comment\nexport TRIBE_ADDR=127.0.0.1:9000\nTRIBE_CAPACITY='40'\nTRIBE_ADMIN_EMAILS=\"Admin@Example.com, other@example.com\"\nTRIBE_BASE_URL=https://ruv.io/ # trailing\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"TRIBE_CAPACITY": "45"}), path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9000" {
		t.Errorf("addr %q from .env", c.Addr)
	}
	if c.Capacity != 45 {
		t.Errorf("capacity %d, want the environment's 45", c.Capacity)
	}
	if c.BaseURL != "https://ruv.io" {
		t.Errorf("base url %q", c.BaseURL)
	}
	if strings.Join(c.AdminEmails, ",") != "admin@example.com,other@example.com" {
		t.Errorf("admin emails %v", c.AdminEmails)
	}
}

func TestBadDotenvLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	_ = os.WriteFile(path, []byte("OK=1\nthis is not a pair\n"), 0o600)
	_, err := Load(env(nil), path)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v, want the line number", err)
	}
}

func TestRejectsBadValuesWithOneHelpfulLine(t *testing.T) {
	cases := []struct {
		name, key, val, want string
	}{
		{"mysql url", "DATABASE_URL", "mysql://root@localhost/db", "postgres://"},
		{"url without db", "DATABASE_URL", "postgres://u@localhost:5432", "names no database"},
		{"url bad port", "DATABASE_URL", "postgres://u@localhost:99999/db", "port"},
		{"url garbage", "DATABASE_URL", "postgres://u@[::1/db", "cannot be parsed"},
		{"addr no port", "TRIBE_ADDR", "8080", "host:port"},
		{"addr bad port", "TRIBE_ADDR", ":http-ish", "invalid port"},
		{"addr port range", "TRIBE_ADDR", ":70000", "invalid port"},
		{"base url relative", "TRIBE_BASE_URL", "ruv.io", "absolute http(s) URL"},
		{"capacity", "TRIBE_CAPACITY", "lots", "TRIBE_CAPACITY"},
		{"capacity zero", "TRIBE_CAPACITY", "0", "TRIBE_CAPACITY"},
		{"smtp scheme", "SMTP_URL", "http://mail", "smtp://"},
		{"admin email", "TRIBE_ADMIN_EMAILS", "not-an-address", "TRIBE_ADMIN_EMAILS"},
		{"admin domain", "TRIBE_ADMIN_DOMAIN", "localhost", "domain"},
		{"content dir", "TRIBE_CONTENT_DIR", "/does/not/exist", "TRIBE_CONTENT_DIR"},
		{"trusted proxy", "TRIBE_TRUSTED_PROXIES", "10.0.0.0/8, proxy.internal", "TRIBE_TRUSTED_PROXIES"},
		{"group chat not https", "TRIBE_GROUP_CHAT_URL", "http://chat.example/invite", "https"},
		{"group chat relative", "TRIBE_GROUP_CHAT_URL", "chat.example/invite", "TRIBE_GROUP_CHAT_URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(env(map[string]string{tc.key: tc.val}), "")
			if err == nil {
				t.Fatalf("%s=%q accepted", tc.key, tc.val)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("message %q: want one line mentioning %q", msg, tc.want)
			}
		})
	}
}

func TestAcceptsGoodValues(t *testing.T) {
	_, err := Load(env(map[string]string{
		"DATABASE_URL":       "postgresql://app:secret@db.internal:5432/tribe?sslmode=require",
		"TRIBE_ADDR":         "127.0.0.1:0",
		"SMTP_URL":           "smtps://user:pw@mail.example.com:465",
		"TRIBE_ADMIN_DOMAIN": "@Ruv.io",
		"AI_BASE_URL":        "http://127.0.0.1:11434/v1/",
	}), "")
	if err != nil {
		t.Fatal(err)
	}
}

func TestPrepareDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	c := &Config{DataDir: dir}
	if err := c.PrepareDataDir(); err != nil {
		t.Fatalf("new nested dir: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("write check left %d files behind", len(entries))
	}
	file := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(file, nil, 0o600)
	c = &Config{DataDir: filepath.Join(file, "data")}
	err := c.PrepareDataDir()
	if err == nil || !strings.Contains(err.Error(), "TRIBE_DATA_DIR") {
		t.Fatalf("data dir under a file: %v", err)
	}
	if os.Geteuid() != 0 { // root writes anywhere, so only check read-only dirs as a normal user
		ro := filepath.Join(t.TempDir(), "ro")
		_ = os.Mkdir(ro, 0o500)
		c = &Config{DataDir: ro}
		if err := c.PrepareDataDir(); err == nil {
			t.Fatal("read-only data dir accepted")
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	c, err := Load(env(map[string]string{"TRIBE_TRUSTED_PROXIES": " 10.1.2.3/8, 127.0.0.1 ,::1,"}), "")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(c.TrustedProxies)
	if got != "[10.0.0.0/8 127.0.0.1/32 ::1/128]" {
		t.Fatalf("trusted proxies %s", got)
	}
}
