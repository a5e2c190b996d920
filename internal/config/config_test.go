package config

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		{"admin domain mixed scripts", "TRIBE_ADMIN_DOMAIN", "ex\u0430mple.org", "TRIBE_ADMIN_DOMAIN"},
		{"admin email look-alike", "TRIBE_ADMIN_EMAILS", "ok@example.org,\u0130ris@example.org", "TRIBE_ADMIN_EMAILS"},
		{"admin email kelvin", "TRIBE_ADMIN_EMAILS", "\u212Aate@example.org", "TRIBE_ADMIN_EMAILS"},
		{"content dir", "TRIBE_CONTENT_DIR", "/does/not/exist", "TRIBE_CONTENT_DIR"},
		{"trusted proxy", "TRIBE_TRUSTED_PROXIES", "10.0.0.0/8, proxy.internal", "TRIBE_TRUSTED_PROXIES"},
		{"group chat not https", "TRIBE_GROUP_CHAT_URL", "http://chat.example/invite", "https"},
		{"group chat relative", "TRIBE_GROUP_CHAT_URL", "chat.example/invite", "TRIBE_GROUP_CHAT_URL"},
		{"goal widget http", "TRIBE_GOAL_WIDGET_URL", "http://widgets.example.com/goal.js", "https"},
		{"goal widget relative", "TRIBE_GOAL_WIDGET_URL", "widgets.example.com/goal.js", "TRIBE_GOAL_WIDGET_URL"},
		{"goal widget credentials", "TRIBE_GOAL_WIDGET_URL", "https://u:p@widgets.example.com/goal.js", "not a script URL"},
		{"goal widget csp injection", "TRIBE_GOAL_WIDGET_URL", "https://widgets.example.com/g.js;script-src", "not a script URL"},
		{"goal widget javascript", "TRIBE_GOAL_WIDGET_URL", "javascript:alert(1)", "not a script URL"},
		{"embedding model without api", "AI_EMBEDDING_MODEL", "text-embedding-3-small", "AI_BASE_URL"},

		{"price without key", "STRIPE_PRICE_ID", "price_123", "STRIPE_SECRET_KEY is not"},
		{"webhook secret without key", "STRIPE_WEBHOOK_SECRET", "whsec_123", "STRIPE_SECRET_KEY is not"},
		{"key without price", "STRIPE_SECRET_KEY", "sk_test_123", "STRIPE_PRICE_ID"},
		{"publishable key", "STRIPE_SECRET_KEY", "pk_test_123", "not a Stripe secret key"},
		{"stripe api base", "STRIPE_API_BASE", "localhost:12111", "STRIPE_API_BASE"},
		{"log level word", "TRIBE_LOG_LEVEL", "verbose", "TRIBE_LOG_LEVEL"},
		{"log level offset", "TRIBE_LOG_LEVEL", "info+2", "TRIBE_LOG_LEVEL"},
		{"sweep interval word", "TRIBE_SWEEP_INTERVAL", "often", "TRIBE_SWEEP_INTERVAL"},
		{"sweep interval too short", "TRIBE_SWEEP_INTERVAL", "100ms", "from 1s to 10m"},
		{"sweep interval too long", "TRIBE_SWEEP_INTERVAL", "1h", "from 1s to 10m"},
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
	c, err := Load(env(map[string]string{
		"DATABASE_URL":       "postgresql://app:secret@db.internal:5432/tribe?sslmode=require",
		"TRIBE_ADDR":         "127.0.0.1:0",
		"SMTP_URL":           "smtps://user:pw@mail.example.com:465",
		"TRIBE_ADMIN_DOMAIN": "@Ruv.io",
		"AI_BASE_URL":        "http://127.0.0.1:11434/v1/",
		"AI_EMBEDDING_MODEL": "nomic-embed-text",
	}), "")
	if err != nil {
		t.Fatal(err)
	}
	if !c.EmbeddingsEnabled() {
		t.Fatal("embeddings not enabled with AI_BASE_URL and AI_EMBEDDING_MODEL")
	}
}

func TestGoalWidgetURL(t *testing.T) {
	for _, ok := range []string{"https://widgets.example.com/goal.js", "http://localhost:5173/widget.js", "http://127.0.0.1:9000/w.js"} {
		c, err := Load(env(map[string]string{"TRIBE_GOAL_WIDGET_URL": ok}), "")
		if err != nil || c.GoalWidgetURL != ok {
			t.Errorf("%s: %v, %+v", ok, err, c)
		}
	}
}

func TestStripeComesTogether(t *testing.T) {
	full := map[string]string{
		"STRIPE_SECRET_KEY":     "sk_test_123",
		"STRIPE_PRICE_ID":       "price_123",
		"STRIPE_WEBHOOK_SECRET": "whsec_123",
		"STRIPE_API_BASE":       "http://127.0.0.1:12111",
	}
	c, err := Load(env(full), "")
	if err != nil || !c.PaymentsEnabled() {
		t.Fatalf("full Stripe configuration: %v", err)
	}
	full["STRIPE_WEBHOOK_SECRET"] = ""
	if _, err := Load(env(full), ""); err == nil || !strings.Contains(err.Error(), "STRIPE_WEBHOOK_SECRET") {
		t.Fatalf("key and price without a webhook secret: %v", err)
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

func TestBaseURLFollowsTheListenPort(t *testing.T) {
	cases := []struct {
		env     map[string]string
		want    string
		derived bool
	}{
		{map[string]string{}, "http://localhost:8080", true},
		{map[string]string{"TRIBE_ADDR": ":9090"}, "http://localhost:9090", true},
		{map[string]string{"TRIBE_ADDR": "0.0.0.0:9091"}, "http://localhost:9091", true},
		{map[string]string{"TRIBE_ADDR": "127.0.0.1:9092"}, "http://127.0.0.1:9092", true},
		{map[string]string{"TRIBE_ADDR": "[::]:9093"}, "http://localhost:9093", true},
		{map[string]string{"TRIBE_ADDR": ":9094", "TRIBE_BASE_URL": "https://ruv.example/"}, "https://ruv.example", false},
	}
	for _, c := range cases {
		cfg, err := Load(func(k string) string { return c.env[k] }, "")
		if err != nil {
			t.Fatalf("%v: %v", c.env, err)
		}
		if cfg.BaseURL != c.want || cfg.BaseURLDerived != c.derived {
			t.Errorf("%v: base URL %q (derived %v), want %q (%v)", c.env, cfg.BaseURL, cfg.BaseURLDerived, c.want, c.derived)
		}
	}
}

func TestSweepInterval(t *testing.T) {
	for val, want := range map[string]time.Duration{"": 30 * time.Second, "2s": 2 * time.Second, "10m": 10 * time.Minute} {
		c, err := Load(env(map[string]string{"TRIBE_SWEEP_INTERVAL": val}), "")
		if err != nil || c.SweepInterval != want {
			t.Errorf("TRIBE_SWEEP_INTERVAL=%q: %v %v, want %v", val, c, err, want)
		}
	}
}

func TestLogLevel(t *testing.T) {
	for val, want := range map[string]slog.Level{"": slog.LevelInfo, "debug": slog.LevelDebug, "WARN": slog.LevelWarn, "error": slog.LevelError} {
		c, err := Load(env(map[string]string{"TRIBE_LOG_LEVEL": val}), "")
		if err != nil || c.LogLevel != want {
			t.Errorf("TRIBE_LOG_LEVEL=%q: %v %v, want %v", val, c, err, want)
		}
	}
}

// TestAdminConfigurationIsNormalisedLikeSignUp: the admin list and domain
// are kept in the form sign-up keeps addresses in, so they match exactly
// the mailboxes they spell: upper case and full-width letters of a domain
// are the same name; İbm.example is another domain than ibm.example.
func TestAdminConfigurationIsNormalisedLikeSignUp(t *testing.T) {
	c, err := Load(env(map[string]string{
		"TRIBE_ADMIN_EMAILS": " Boss@EXAMPLE.org , ops@b\u00fccher.example",
		"TRIBE_ADMIN_DOMAIN": "@\uff29\uff22\uff2d.example",
	}), "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.AdminEmails, ",") != "boss@example.org,ops@xn--bcher-kva.example" || c.AdminDomain != "ibm.example" {
		t.Fatalf("admins %v, domain %q", c.AdminEmails, c.AdminDomain)
	}
	c, err = Load(env(map[string]string{"TRIBE_ADMIN_DOMAIN": "\u0130bm.example"}), "")
	if err != nil {
		t.Fatal(err)
	}
	if c.AdminDomain == "ibm.example" || !strings.HasPrefix(c.AdminDomain, "xn--") {
		t.Fatalf("İbm.example read as %q", c.AdminDomain)
	}
}

func TestStorageURL(t *testing.T) {
	keys := map[string]string{"TRIBE_S3_ACCESS_KEY_ID": "AKIA1", "TRIBE_S3_SECRET_ACCESS_KEY": "s3cret"}
	with := func(u string) map[string]string {
		m := map[string]string{"TRIBE_STORAGE_URL": u}
		for k, v := range keys {
			m[k] = v
		}
		return m
	}
	c, err := Load(env(nil), "")
	if err != nil || c.S3 != nil {
		t.Fatalf("default storage: %+v, %v; want the data directory", c.S3, err)
	}
	c, err = Load(env(with("s3://tribe-files?endpoint=http://127.0.0.1:3900&region=garage&path_style=1")), "")
	if err != nil {
		t.Fatal(err)
	}
	want := S3{Bucket: "tribe-files", Endpoint: "127.0.0.1:3900", Region: "garage", PathStyle: true, AccessKeyID: "AKIA1", SecretAccessKey: "s3cret"}
	if *c.S3 != want {
		t.Errorf("S3 = %+v, want %+v", *c.S3, want)
	}
	c, err = Load(env(with("s3://files.example?endpoint=https://abc.r2.cloudflarestorage.com&region=auto")), "")
	if err != nil || !c.S3.Secure || c.S3.PathStyle || c.S3.Endpoint != "abc.r2.cloudflarestorage.com" {
		t.Errorf("R2: %+v, %v", c.S3, err)
	}
	bad := []struct {
		env  map[string]string
		says string
	}{
		{with("https://bucket?endpoint=https://h&region=r"), "must start with s3://"},
		{with("s3://Bucket_Name?endpoint=https://h&region=r"), "not a bucket name"},
		{with("s3://b?endpoint=https://h&region=r"), "not a bucket name"},
		{with("s3://bucket/sub?endpoint=https://h&region=r"), "names a path"},
		{with("s3://bucket?region=r"), "endpoint=\"\""},
		{with("s3://bucket?endpoint=ftp://h&region=r"), "not an http(s) address"},
		{with("s3://bucket?endpoint=h:9000&region=r"), "not an http(s) address"},
		{with("s3://bucket?endpoint=https://h:99999&region=r"), "invalid port"},
		{with("s3://bucket?endpoint=https://h"), "names no region"},
		{with("s3://bucket?endpoint=https://h&region=r&path_style=maybe"), "path_style"},
		{with("s3://bucket?endpoint=https://h&region=r&pathstyle=1"), "unknown setting"},
		{with("s3://key:secret@bucket?endpoint=https://h&region=r"), "must not carry keys"},
		{map[string]string{"TRIBE_STORAGE_URL": "s3://bucket?endpoint=https://h&region=r"}, "TRIBE_S3_ACCESS_KEY_ID"},
		{keys, "TRIBE_STORAGE_URL is not"},
	}
	for _, tc := range bad {
		_, err := Load(env(tc.env), "")
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: error %v, want one saying %q", tc.env["TRIBE_STORAGE_URL"], err, tc.says)
		}
	}
}

// TestMaxUploadSizes: TRIBE_MAX_UPLOAD is 4 GiB by default, reads bytes and
// binary units, and refuses anything else by name.
func TestMaxUploadSizes(t *testing.T) {
	for in, want := range map[string]int64{"": 4 << 30, "1048576": 1 << 20, "500MiB": 500 << 20, "2 GiB": 2 << 30, "1tb": 1 << 40} {
		c, err := Load(env(map[string]string{"TRIBE_MAX_UPLOAD": in}), "")
		if err != nil || c.MaxUpload != want {
			t.Errorf("TRIBE_MAX_UPLOAD=%q: %d, %v; want %d", in, c.MaxUpload, err, want)
		}
	}
	for _, in := range []string{"0", "-5", "lots", "4.5GiB", "99999999TiB"} {
		if _, err := Load(env(map[string]string{"TRIBE_MAX_UPLOAD": in}), ""); err == nil || !strings.Contains(err.Error(), "TRIBE_MAX_UPLOAD") {
			t.Errorf("TRIBE_MAX_UPLOAD=%q: %v", in, err)
		}
	}
}
