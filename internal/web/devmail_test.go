package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// devMailHandler builds the site with the given environment on db.
func devMailHandler(t *testing.T, db *store.DB, env map[string]string) http.Handler {
	t.Helper()
	app := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><title>rUv</title><div id="root"></div>`)}}
	return newTestSite(t, db, env, withOptions(func(o *Options) { o.App = app })).h
}

// devMailGet sends a GET from remoteAddr straight to the handler.
func devMailGet(h http.Handler, path, remoteAddr string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.RemoteAddr = remoteAddr
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestDevMailbox(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		older, err := mail.Enqueue(ctx, db.Write, mail.Message{To: "bob@example.com", Subject: "Plain only", Text: "no html <here>"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Write.ExecContext(ctx, `UPDATE mail_outbox SET created_at = $2 WHERE id = $1`, older, store.At(time.Now().Add(-time.Minute))); err != nil {
			t.Fatal(err)
		}
		newer, err := mail.Enqueue(ctx, db.Write, mail.Compose(mail.Content{
			To: "ada@example.com", Subject: "Reset your password", Heading: "Reset <now>",
			Button: &mail.Link{Label: "Choose a new password", URL: "http://localhost:8080/auth?reset=true&token=abc123"},
		}))
		if err != nil {
			t.Fatal(err)
		}
		// The mailbox is served by a server bound to a loopback address.
		h := devMailHandler(t, db, map[string]string{"TRIBE_ADDR": "127.0.0.1:8080"})

		// JSON, newest first.
		rec := devMailGet(h, "/api/dev/mail", "127.0.0.1:50000", nil)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /api/dev/mail = %d %s", rec.Code, rec.Body)
		}
		var body struct {
			Messages []map[string]string `json:"messages"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Messages) != 2 || body.Messages[0]["id"] != newer || body.Messages[1]["id"] != older {
			t.Fatalf("messages = %v, want newest first", body.Messages)
		}
		m := body.Messages[0]
		if m["to"] != "ada@example.com" || m["subject"] != "Reset your password" || m["status"] != "pending" ||
			!strings.Contains(m["text"], "token=abc123") || !strings.Contains(m["html"], "token=abc123") {
			t.Errorf("message = %v", m)
		}
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", m["created_at"]); err != nil {
			t.Errorf("created_at %q: %v", m["created_at"], err)
		}

		// The HTML page, from IPv6 loopback.
		rec = devMailGet(h, "/dev/mail", "[::1]:50000", nil)
		page := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("GET /dev/mail = %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		for _, want := range []string{
			"not being delivered", "Reset your password", "ada@example.com", "pending",
			`<a href="http://localhost:8080/auth?reset=true&amp;token=abc123"`, // the link is clickable
			"Reset &lt;now&gt;", "no html &lt;here&gt;", // bodies are escaped
			`href="/dev/mail/` + newer + `"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		if strings.Contains(page, "<script") || strings.Contains(page, `href="/dev/mail/`+older+`"`) {
			t.Error("page has a script, or an HTML link for a text-only message")
		}
		if strings.Index(page, "Reset your password") > strings.Index(page, "Plain only") {
			t.Error("page is not newest first")
		}

		// One message's HTML body, sandboxed.
		rec = devMailGet(h, "/dev/mail/"+newer, "127.0.0.1:50000", nil)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Choose a new password") {
			t.Fatalf("GET /dev/mail/{id} = %d", rec.Code)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox") || strings.Contains(csp, "script") {
			t.Errorf("CSP = %q, want a sandbox without scripts", csp)
		}
		if rec := devMailGet(h, "/dev/mail/no-such-id", "127.0.0.1:50000", nil); rec.Code != http.StatusNotFound {
			t.Errorf("unknown id = %d, want 404", rec.Code)
		}

		// Not from this machine, or through a proxy: as if absent.
		for _, c := range []struct {
			remote string
			hdr    map[string]string
		}{
			{"203.0.113.7:40000", nil},
			{"10.0.0.2:40000", nil},
			{"[2001:db8::1]:40000", nil},
			{"127.0.0.1:40000", map[string]string{"X-Forwarded-For": "203.0.113.7"}},
		} {
			for _, path := range []string{"/api/dev/mail", "/dev/mail", "/dev/mail/" + newer} {
				rec := devMailGet(h, path, c.remote, c.hdr)
				if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "abc123") {
					t.Errorf("%s from %s %v = %d, want 404 without content", path, c.remote, c.hdr, rec.Code)
				}
			}
		}
		if rec := devMailGet(h, "/api/dev/mail", "203.0.113.7:40000", nil); !strings.Contains(rec.Body.String(), `"not_found"`) {
			t.Errorf("API 404 is not the JSON error: %s", rec.Body)
		}
	})
}

func TestDevMailboxAbsentWithSMTP(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	if _, err := mail.Enqueue(context.Background(), db.Write, mail.Message{To: "a@example.com", Subject: "secret link", Text: "token=abc123"}); err != nil {
		t.Fatal(err)
	}
	h := devMailHandler(t, db, map[string]string{"SMTP_URL": "smtp://mail.example.com:587"})
	rec := devMailGet(h, "/api/dev/mail", "127.0.0.1:50000", nil)
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"not_found"`) {
		t.Errorf("/api/dev/mail with SMTP_URL = %d %s", rec.Code, rec.Body)
	}
	for _, path := range []string{"/dev/mail", "/dev/mail/x"} {
		rec := devMailGet(h, path, "127.0.0.1:50000", nil)
		if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "abc123") {
			t.Errorf("%s with SMTP_URL = %d", path, rec.Code)
		}
	}
}

func TestSplitLinks(t *testing.T) {
	t.Parallel()
	got := splitLinks("Open https://example.com/a?b=1&c=2. Or http://x.test/y).")
	want := []textPart{{Text: "Open "}, {URL: "https://example.com/a?b=1&c=2"}, {Text: ". Or "}, {URL: "http://x.test/y"}, {Text: ")."}}
	if len(got) != len(want) {
		t.Fatalf("splitLinks = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("part %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestDevMailboxNeedsALoopbackListenAddress: a server listening on every
// interface (TRIBE_ADDR=:8080, the default) may sit behind a proxy on the
// same machine, whose requests come from a loopback peer without forwarding
// headers; it must not serve reset links at all. Only a server bound to a
// loopback address has the mailbox.
func TestDevMailboxNeedsALoopbackListenAddress(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	if _, err := mail.Enqueue(context.Background(), db.Write, mail.Message{To: "a@example.com", Subject: "secret link", Text: "token=abc123"}); err != nil {
		t.Fatal(err)
	}
	for addr, served := range map[string]bool{
		"":               false, // the default, :8080
		":8080":          false,
		"0.0.0.0:8080":   false,
		"[::]:8080":      false,
		"192.0.2.1:8080": false,
		"example.com:80": false,
		"127.0.0.1:8080": true,
		"127.0.0.2:8080": true,
		"[::1]:8080":     true,
		"localhost:8080": true,
		"LOCALHOST:8080": true,
	} {
		h := devMailHandler(t, db, map[string]string{"TRIBE_ADDR": addr})
		rec := devMailGet(h, "/api/dev/mail", "127.0.0.1:50000", nil)
		if got := rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), "abc123"); got != served {
			t.Errorf("TRIBE_ADDR=%q: /api/dev/mail from loopback = %d, want served=%v", addr, rec.Code, served)
		}
		if page := devMailGet(h, "/dev/mail", "127.0.0.1:50000", nil); (page.Code == http.StatusOK) != served {
			t.Errorf("TRIBE_ADDR=%q: /dev/mail = %d", addr, page.Code)
		}
	}
}

// TestLoopbackWithAnyProxyHeaderIsNotLocal: the development mailbox and
// /metrics trusted a loopback request carrying X-Real-IP (only
// X-Forwarded-For and Forwarded counted as proxied), so a proxy on this
// machine that sets X-Real-IP handed them to anyone. Any proxy header now
// makes a request "not local".
func TestLoopbackWithAnyProxyHeaderIsNotLocal(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if _, err := mail.Enqueue(context.Background(), db.Write, mail.Message{To: "a@example.com", Subject: "Reset", Text: "token=abc123"}); err != nil {
			t.Fatal(err)
		}
		h := devMailHandler(t, db, map[string]string{"TRIBE_ADDR": "127.0.0.1:8080"})
		paths := []string{"/api/dev/mail", "/dev/mail", "/metrics"}
		for _, path := range paths {
			if rec := devMailGet(h, path, "127.0.0.1:40000", nil); rec.Code != http.StatusOK {
				t.Fatalf("%s straight from this machine: %d", path, rec.Code)
			}
		}
		for _, hdr := range []string{
			"X-Real-IP", "x-real-ip", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Port",
			"Forwarded", "Via", "True-Client-IP", "CF-Connecting-IP", "X-Client-IP", "Fastly-Client-IP",
		} {
			for _, path := range paths {
				for _, value := range []string{"203.0.113.7", ""} {
					req := httptest.NewRequest(http.MethodGet, path, nil)
					req.RemoteAddr = "127.0.0.1:40000"
					req.Header.Set(hdr, value) // the server canonicalises names as it reads them
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "abc123") || strings.Contains(rec.Body.String(), "tribe_http") {
						t.Errorf("%s from loopback with %s: %q = %d, want 404 without content", path, hdr, value, rec.Code)
					}
				}
			}
		}
	})
}
