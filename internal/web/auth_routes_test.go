package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/csvx"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// browser is one visitor with its own cookie jar.
type browser struct {
	t   *testing.T
	srv *httptest.Server
	c   *http.Client
	// from is the address it comes from, sent as X-Forwarded-For ("" for
	// none): it counts where the site trusts the test's loopback proxy.
	from string
}

func newBrowser(t *testing.T, srv *httptest.Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, srv: srv, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type reply struct {
	status int
	header http.Header
	body   string
	json   map[string]any
}

func (r reply) errCode() string {
	e, _ := r.json["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func (r reply) errMessage() string {
	e, _ := r.json["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

func (r reply) user() map[string]any {
	u, _ := r.json["user"].(map[string]any)
	return u
}

func (b *browser) do(method, path string, body any) reply {
	b.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		j, _ := json.Marshal(v)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, b.srv.URL+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.from != "" {
		req.Header.Set("X-Forwarded-For", b.from)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	_ = json.Unmarshal(raw, &r.json)
	return r
}

func (b *browser) signUp(name, email, password string) reply {
	b.t.Helper()
	return b.do("POST", "/api/auth/signup", map[string]string{"full_name": name, "email": email, "password": password})
}

func (b *browser) signIn(email, password string) reply {
	b.t.Helper()
	return b.do("POST", "/api/auth/signin", map[string]string{"email": email, "password": password})
}

// me is the signed-in user's e-mail, or "" when signed out.
func (b *browser) me() string {
	b.t.Helper()
	r := b.do("GET", "/api/auth/session", nil)
	if r.status != 200 {
		b.t.Fatalf("GET /api/auth/session: %d %s", r.status, r.body)
	}
	if r.user() == nil {
		return ""
	}
	return r.user()["email"].(string)
}

func sessionCookie(t *testing.T, h http.Header) *http.Cookie {
	t.Helper()
	for _, line := range h.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && c.Name == auth.CookieName {
			return c
		}
	}
	return nil
}

var confirmLinkRE = regexp.MustCompile(`https?://[^\s]+/auth/confirm\?token=[A-Za-z0-9_%-]+`)
var resetLinkRE = regexp.MustCompile(`https?://[^\s]+/auth\?reset=true&token=[A-Za-z0-9_%-]+`)

func outboxText(t *testing.T, db *store.DB, to string) string {
	t.Helper()
	var text string
	if err := db.Read.QueryRowContext(context.Background(),
		`SELECT text_body FROM mail_outbox WHERE to_addr = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, to).Scan(&text); err != nil {
		t.Fatalf("no mail to %s: %v", to, err)
	}
	return text
}

func outboxCount(t *testing.T, db *store.DB, to string) int {
	t.Helper()
	var n int
	_ = db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = $1`, to).Scan(&n)
	return n
}

// pathOf turns a mailed absolute link into a path on the test server.
func pathOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func TestSignUpSignInSignOutOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		ada := newBrowser(t, srv)
		if ada.me() != "" {
			t.Fatal("a new visitor must be signed out")
		}
		r := ada.signUp(" Ada Lovelace ", " Ada@Example.com ", "analytical")
		if r.status != 201 {
			t.Fatalf("sign-up: %d %s", r.status, r.body)
		}
		u := r.user()
		if u["email"] != "Ada@example.com" || u["full_name"] != "Ada Lovelace" || u["email_confirmed"] != false ||
			u["is_admin"] != false || u["avatar_url"] != nil || u["subscription"] != nil || u["id"] == "" {
			t.Fatalf("user object %v", u)
		}
		if _, ok := u["subscription"]; !ok {
			t.Fatal("subscription must be present (null) in the user object")
		}
		if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(u["created_at"].(string)) {
			t.Fatalf("created_at %v", u["created_at"])
		}
		c := sessionCookie(t, r.header)
		if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge != 30*24*3600 || c.Secure || len(c.Value) < 40 {
			t.Fatalf("session cookie %+v", c)
		}
		if ada.me() != "Ada@example.com" {
			t.Fatal("the cookie must sign the browser in")
		}
		if n := outboxCount(t, db, "Ada@example.com"); n != 1 {
			t.Fatalf("%d confirmation mails", n)
		}

		// The subscription shows in the user object.
		end := store.At(time.Date(2026, 12, 23, 10, 0, 0, 0, time.UTC))
		if _, err := db.Write.ExecContext(context.Background(),
			`INSERT INTO subscriptions (user_id, status, current_period_end) VALUES ($1, 'active', $2)`, u["id"], end); err != nil {
			t.Fatal(err)
		}
		r = ada.do("GET", "/api/auth/session", nil)
		sub, _ := r.user()["subscription"].(map[string]any)
		if sub == nil {
			t.Fatalf("no subscription: %s", r.body)
		}
		if sub["status"] != "active" || sub["current_period_end"] != "2026-12-23T10:00:00.000Z" || sub["cancel_at_period_end"] != false {
			t.Fatalf("subscription %v", sub)
		}

		// Taken address, any case.
		other := newBrowser(t, srv)
		r = other.signUp("Mallory", "ada@EXAMPLE.com", "whatever1")
		if r.status != 409 || r.errCode() != "email_taken" || r.errMessage() != "An account with this e-mail already exists. Sign in or reset your password." {
			t.Fatalf("taken: %d %s", r.status, r.body)
		}
		if sessionCookie(t, r.header) != nil || other.me() != "" {
			t.Fatal("a refused sign-up must not sign in")
		}

		// Wrong password and unknown address answer byte for byte the same.
		wrong := other.signIn("ada@example.com", "not the password")
		unknown := other.signIn("nobody@example.com", "not the password")
		if wrong.status != 401 || wrong.errCode() != "invalid_credentials" || wrong.errMessage() != "Invalid login credentials" {
			t.Fatalf("wrong password: %d %s", wrong.status, wrong.body)
		}
		if unknown.status != wrong.status || unknown.body != wrong.body {
			t.Fatalf("unknown address answered differently: %d %s vs %d %s", unknown.status, unknown.body, wrong.status, wrong.body)
		}

		// Two browsers; local sign-out ends one, global ends all.
		laptop := newBrowser(t, srv)
		if r := laptop.signIn("ADA@example.com", "analytical"); r.status != 200 || r.user()["email"] != "Ada@example.com" || sessionCookie(t, r.header) == nil {
			t.Fatalf("sign-in: %d %s", r.status, r.body)
		}
		r = ada.do("POST", "/api/auth/signout", nil)
		if r.status != 204 {
			t.Fatalf("sign-out: %d %s", r.status, r.body)
		}
		if c := sessionCookie(t, r.header); c == nil || c.MaxAge >= 0 && c.Value != "" {
			t.Fatalf("sign-out must clear the cookie: %+v", c)
		}
		if ada.me() != "" || laptop.me() != "Ada@example.com" {
			t.Fatal("local sign-out must end this session only")
		}
		phone := newBrowser(t, srv)
		phone.signIn("ada@example.com", "analytical")
		if r := laptop.do("POST", "/api/auth/signout", map[string]string{"scope": "bogus"}); r.status != 400 || r.errCode() != "invalid" {
			t.Fatalf("bad scope: %d %s", r.status, r.body)
		}
		if r := laptop.do("POST", "/api/auth/signout", map[string]string{"scope": "global"}); r.status != 204 {
			t.Fatalf("global sign-out: %d", r.status)
		}
		if laptop.me() != "" || phone.me() != "" {
			t.Fatal("global sign-out must end every session")
		}
		if r := phone.do("POST", "/api/auth/confirm/resend", nil); r.status != 401 || r.errCode() != "unauthorized" {
			t.Fatalf("member endpoint after sign-out: %d %s", r.status, r.body)
		}
		// Signing out while signed out is fine.
		if r := phone.do("POST", "/api/auth/signout", nil); r.status != 204 {
			t.Fatalf("sign-out when signed out: %d", r.status)
		}
	})
}

func TestAuthInputErrors(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	srv := newTestSite(t, db, nil).srv
	b := newBrowser(t, srv)
	cases := []struct {
		path string
		body any
		code int
		err  string
		msg  string
	}{
		{"/api/auth/signup", map[string]string{"full_name": "Ada", "email": "ada@example.com", "password": "short"}, 400, "invalid", "Password must be at least 8 characters."},
		{"/api/auth/signup", map[string]string{"full_name": " ", "email": "ada@example.com", "password": "long enough"}, 400, "invalid", "Full name is required."},
		{"/api/auth/signup", map[string]string{"full_name": "Ada", "email": "ada at example", "password": "long enough"}, 400, "invalid", "Enter a valid e-mail address."},
		{"/api/auth/signup", "not json", 400, "bad_json", "The request body is not valid JSON."},
		{"/api/auth/signup", `["a list"]`, 400, "bad_json", "The request body must be a JSON object."},
		{"/api/auth/signup", `{"full_name": "Ada"} {"full_name": "Eve"}`, 400, "bad_json", "The request body must hold one JSON object and nothing after it."},
		{"/api/auth/signup", `{"full_name": 7}`, 400, "invalid", "Full name must be text."},
		{"/api/auth/signup", `{"full_name": "` + strings.Repeat("x", 70000) + `"}`, 413, "too_large", "The request body is too large."},
		{"/api/auth/signin", map[string]string{"email": "", "password": "x"}, 400, "invalid", "E-mail is required."},
		{"/api/auth/password/forgot", map[string]string{"email": "nope"}, 400, "invalid", "Enter a valid e-mail address."},
		{"/api/auth/password/reset", map[string]string{"token": "x", "password": "short"}, 400, "invalid", "Password must be at least 8 characters."},
		{"/api/waitlist", map[string]string{"full_name": "", "email": "ada@example.com"}, 400, "invalid", "Full name is required."},
	}
	for _, c := range cases {
		r := b.do("POST", c.path, c.body)
		if r.status != c.code || r.errCode() != c.err || r.errMessage() != c.msg {
			t.Errorf("%s %.80v: %d %.200s; want %d %s %q", c.path, c.body, r.status, r.body, c.code, c.err, c.msg)
		}
	}
	if r := b.do("POST", "/api/auth/password/reset", map[string]string{"token": "made-up", "password": "long enough"}); r.status != 400 || r.errCode() != "invalid_token" {
		t.Errorf("made-up reset token: %d %s", r.status, r.body)
	}
	var users int
	_ = db.Read.QueryRow(`SELECT COUNT(*) FROM users`).Scan(&users)
	if users != 0 {
		t.Fatalf("bad input wrote %d users", users)
	}
}

func TestPasswordForgotDoesNotRevealAccounts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		b := newBrowser(t, srv)
		b.signUp("Ada", "ada@example.com", "analytical")
		known := b.do("POST", "/api/auth/password/forgot", map[string]string{"email": "ada@example.com", "redirect_to": "https://evil.example/"})
		unknown := b.do("POST", "/api/auth/password/forgot", map[string]string{"email": "nobody@example.com"})
		if known.status != 202 || known.status != unknown.status || known.body != unknown.body {
			t.Fatalf("known %d %s / unknown %d %s", known.status, known.body, unknown.status, unknown.body)
		}
		if outboxCount(t, db, "nobody@example.com") != 0 {
			t.Fatal("an unknown address must get no mail")
		}
		link := resetLinkRE.FindString(outboxText(t, db, "ada@example.com"))
		if !strings.HasPrefix(link, "http://localhost:8080/auth?reset=true&token=") {
			t.Fatalf("reset link %q must use TRIBE_BASE_URL and ignore redirect_to", link)
		}
	})
}

// TestMailedLinksThroughSMTP follows the links a real SMTP server receives.
func TestMailedLinksThroughSMTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		smtp := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(smtp.URL(), "hello@ruv.example")
		if err != nil {
			t.Fatal(err)
		}
		worker := mail.NewWorker(db, sender, slog.New(slog.NewTextHandler(io.Discard, nil)), mail.WorkerOptions{})
		deliver := func(n int) []mailtest.Received {
			t.Helper()
			if _, err := worker.Drain(ctx); err != nil {
				t.Fatal(err)
			}
			return smtp.WaitFor(t, n, 10*time.Second)
		}
		srv := newTestSite(t, db, map[string]string{"TRIBE_ADMIN_EMAILS": "ada@example.com"}).srv
		ada := newBrowser(t, srv)
		if r := ada.signUp("Ada", "ada@example.com", "analytical"); r.status != 201 {
			t.Fatalf("sign-up: %d %s", r.status, r.body)
		}
		if r := ada.do("GET", "/api/admin/waitlist", nil); r.status != 403 {
			t.Fatalf("a listed but unconfirmed address must not be an admin: %d", r.status)
		}
		msgs := deliver(1)
		if msgs[0].Subject != "Confirm your e-mail address" || !strings.Contains(msgs[0].To, "ada@example.com") {
			t.Fatalf("mail %q to %q", msgs[0].Subject, msgs[0].To)
		}
		link := confirmLinkRE.FindString(msgs[0].Text)
		if link == "" || !strings.Contains(msgs[0].HTML, link) {
			t.Fatalf("confirmation link missing from the text or HTML part:\n%s", msgs[0].Text)
		}
		r := ada.do("GET", pathOf(t, link), nil)
		if r.status != 303 || r.header.Get("Location") != "/members?confirmed=true" {
			t.Fatalf("confirm: %d %q", r.status, r.header.Get("Location"))
		}
		if me := ada.do("GET", "/api/auth/session", nil).user(); me["email_confirmed"] != true || me["is_admin"] != true {
			t.Fatalf("after confirming: %v", me)
		}
		if r := ada.do("GET", "/api/admin/waitlist", nil); r.status != 200 {
			t.Fatalf("a confirmed listed address is an admin: %d", r.status)
		}
		if r := ada.do("GET", pathOf(t, link), nil); r.status != 303 || r.header.Get("Location") != "/auth?confirm_error=used" {
			t.Fatalf("second use: %d %q", r.status, r.header.Get("Location"))
		}
		if r := ada.do("GET", "/auth/confirm?token=nonsense", nil); r.header.Get("Location") != "/auth?confirm_error=invalid" {
			t.Fatalf("made-up token: %q", r.header.Get("Location"))
		}
		if r := ada.do("POST", "/api/auth/confirm/resend", nil); r.status != 202 || r.json["message"] != "Your e-mail address is already confirmed." {
			t.Fatalf("resend when confirmed: %d %s", r.status, r.body)
		}

		// Reset: a second browser stays signed in until the reset ends it.
		laptop := newBrowser(t, srv)
		laptop.signIn("ada@example.com", "analytical")
		visitor := newBrowser(t, srv)
		if r := visitor.do("POST", "/api/auth/password/forgot", map[string]string{"email": "ADA@example.com"}); r.status != 202 {
			t.Fatalf("forgot: %d %s", r.status, r.body)
		}
		msgs = deliver(2)
		if msgs[1].Subject != "Reset your password" {
			t.Fatalf("second mail %q", msgs[1].Subject)
		}
		link = resetLinkRE.FindString(msgs[1].Text)
		if link == "" {
			t.Fatalf("no reset link in:\n%s", msgs[1].Text)
		}
		u, _ := url.Parse(link)
		if u.Path != "/auth" || u.Query().Get("reset") != "true" {
			t.Fatalf("reset link %s", link)
		}
		token := u.Query().Get("token")
		r = visitor.do("POST", "/api/auth/password/reset", map[string]string{"token": token, "password": "difference engine"})
		if r.status != 200 || r.user()["email"] != "ada@example.com" || sessionCookie(t, r.header) == nil {
			t.Fatalf("reset: %d %s", r.status, r.body)
		}
		if visitor.me() != "ada@example.com" {
			t.Fatal("the reset must sign this browser in")
		}
		if ada.me() != "" || laptop.me() != "" {
			t.Fatal("the reset must end every other session")
		}
		if r := laptop.signIn("ada@example.com", "analytical"); r.status != 401 {
			t.Fatalf("old password after reset: %d", r.status)
		}
		if r := laptop.signIn("ada@example.com", "difference engine"); r.status != 200 {
			t.Fatalf("new password: %d", r.status)
		}
		if r := newBrowser(t, srv).do("POST", "/api/auth/password/reset", map[string]string{"token": token, "password": "third password"}); r.status != 400 || r.errCode() != "invalid_token" {
			t.Fatalf("reset link used twice: %d %s", r.status, r.body)
		}
		msgs = deliver(3)
		if msgs[2].Subject != "Your password was changed" {
			t.Fatalf("third mail %q", msgs[2].Subject)
		}
	})
}

func TestSessionRenewalAndExpiryOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		srv := newTestSite(t, db, nil).srv
		b := newBrowser(t, srv)
		r := b.signUp("Ada", "ada@example.com", "analytical")
		token := sessionCookie(t, r.header).Value
		hash := auth.HashToken(token)
		// A fresh session is not rewritten on every request.
		if r := b.do("GET", "/api/auth/session", nil); sessionCookie(t, r.header) != nil {
			t.Fatal("a fresh session must not be renewed on every request")
		}
		// Last seen 10 minutes ago: the next request renews it and resends the cookie.
		old := store.At(time.Now().Add(-10 * time.Minute))
		if _, err := db.Write.ExecContext(ctx, `UPDATE auth_sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3`,
			old, store.At(time.Now().Add(24*time.Hour)), hash); err != nil {
			t.Fatal(err)
		}
		r = b.do("GET", "/api/auth/session", nil)
		c := sessionCookie(t, r.header)
		if c == nil || c.Value != token || c.MaxAge != 30*24*3600 || !c.HttpOnly {
			t.Fatalf("renewal cookie %+v", c)
		}
		var expires store.Time
		_ = db.Read.QueryRowContext(ctx, `SELECT expires_at FROM auth_sessions WHERE token_hash = $1`, hash).Scan(&expires)
		if time.Until(expires.Time) < 29*24*time.Hour {
			t.Fatalf("renewal did not slide the expiry: %v", expires.Time)
		}
		// Static pages never look at the session.
		if _, err := db.Write.ExecContext(ctx, `UPDATE auth_sessions SET expires_at = $1 WHERE token_hash = $2`,
			store.At(time.Now().Add(-time.Minute)), hash); err != nil {
			t.Fatal(err)
		}
		if r := b.do("GET", "/about", nil); r.status != 200 || sessionCookie(t, r.header) != nil {
			t.Fatalf("a page request touched the session cookie: %d", r.status)
		}
		// Expired: treated as signed out, cookie cleared, row deleted.
		r = b.do("GET", "/api/auth/session", nil)
		if r.user() != nil {
			t.Fatal("an expired session must not sign in")
		}
		if c := sessionCookie(t, r.header); c == nil || c.MaxAge >= 0 {
			t.Fatalf("the expired cookie must be cleared: %+v", c)
		}
		var n int
		_ = db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM auth_sessions WHERE token_hash = $1`, hash).Scan(&n)
		if n != 0 {
			t.Fatal("the expired session must be deleted")
		}
	})
}

func TestSecureCookieBehindTLS(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	srv := newTestSite(t, db, map[string]string{"TRIBE_BASE_URL": "https://ruv.example"}).srv
	r := newBrowser(t, srv).signUp("Ada", "ada@example.com", "analytical")
	if c := sessionCookie(t, r.header); c == nil || !c.Secure || !c.HttpOnly {
		t.Fatalf("cookie %+v must be Secure when TRIBE_BASE_URL is https", c)
	}
	if link := confirmLinkRE.FindString(outboxText(t, db, "ada@example.com")); !strings.HasPrefix(link, "https://ruv.example/auth/confirm?token=") {
		t.Fatalf("confirmation link %q", link)
	}
}

func TestConcurrentSignUpOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		const n = 5 // the per-address sign-up limit lets five through at once
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				statuses[i] = newBrowser(t, srv).signUp("Racer", fmt.Sprintf(" RACE@example.com%s", strings.Repeat(" ", i)), "password123").status
			})
		}
		wg.Wait()
		created, taken := 0, 0
		for _, s := range statuses {
			switch s {
			case 201:
				created++
			case 409:
				taken++
			}
		}
		if created != 1 || taken != n-1 {
			t.Fatalf("statuses %v: want one 201 and %d 409", statuses, n-1)
		}
	})
}

func retryAfter(t *testing.T, r reply) int {
	t.Helper()
	if r.status != 429 || r.errCode() != "rate_limited" {
		t.Fatalf("want 429 rate_limited, got %d %s", r.status, r.body)
	}
	n, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || n < 1 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	return n
}

func TestRateLimitsOverHTTP(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	srv := newTestSite(t, db, nil).srv
	b := newBrowser(t, srv)

	// Reset requests: three per address, then 429, for a known and an unknown
	// address alike.
	b.signUp("Ada", "ada@example.com", "analytical")
	for _, email := range []string{"ada@example.com", "nobody@example.com"} {
		for i := range 3 {
			if r := b.do("POST", "/api/auth/password/forgot", map[string]string{"email": email}); r.status != 202 {
				t.Fatalf("%s request %d: %d", email, i+1, r.status)
			}
		}
		retryAfter(t, b.do("POST", "/api/auth/password/forgot", map[string]string{"email": email}))
	}
	if n := outboxCount(t, db, "ada@example.com"); n != 4 { // confirmation + three resets
		t.Fatalf("%d mails to ada", n)
	}

	// Sign-up: five attempts per address.
	for i := range 5 {
		if r := b.signUp("Grace", "grace@example.com", "compilers"); r.status != 201 && r.status != 409 {
			t.Fatalf("sign-up %d: %d %s", i+1, r.status, r.body)
		}
	}
	retryAfter(t, b.signUp("Grace", "GRACE@example.com", "compilers"))

	// Wait list: twenty per IP address.
	for i := range 20 {
		if r := b.do("POST", "/api/waitlist", map[string]string{"full_name": "P", "email": fmt.Sprintf("p%d@example.com", i)}); r.status != 201 {
			t.Fatalf("wait list %d: %d %s", i+1, r.status, r.body)
		}
	}
	retryAfter(t, b.do("POST", "/api/waitlist", map[string]string{"full_name": "P", "email": "late@example.com"}))
}

func TestFailedSignInsSlowDownAndRecover(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	srv := newTestSite(t, db, nil).srv
	b := newBrowser(t, srv)
	b.signUp("Ada", "ada@example.com", "analytical")
	for i := range 5 {
		if r := b.signIn("ada@example.com", "guess"); r.status != 401 {
			t.Fatalf("failure %d: %d %s", i+1, r.status, r.body)
		}
	}
	// After five failures even the right password waits from this client:
	// the attempt is not checked.
	slowed := b.signIn("ada@example.com", "analytical")
	if n := retryAfter(t, slowed); n != 1 {
		t.Fatalf("Retry-After %d, want 1 after the first slowed failure", n)
	}
	if msg := slowed.errMessage(); !strings.Contains(msg, "wait 1 second and") {
		t.Errorf("a one-second wait reads %q", msg)
	}
	// Another address is unaffected.
	if r := b.signIn("grace@example.com", "guess"); r.status != 401 {
		t.Fatalf("other address: %d", r.status)
	}
	time.Sleep(1100 * time.Millisecond)
	if r := b.signIn("ada@example.com", "guess again"); r.status != 401 {
		t.Fatalf("after waiting: %d", r.status)
	}
	slowed = b.signIn("ada@example.com", "analytical")
	if n := retryAfter(t, slowed); n != 2 {
		t.Fatalf("Retry-After %d, want the delay to double to 2", n)
	}
	if msg := slowed.errMessage(); !strings.Contains(msg, "wait 2 seconds and") {
		t.Errorf("a two-second wait reads %q", msg)
	}
	time.Sleep(2100 * time.Millisecond)
	if r := b.signIn("ada@example.com", "analytical"); r.status != 200 {
		t.Fatalf("the owner gets in once the short delay passes: %d %s", r.status, r.body)
	}
	// Success clears the count: the next failures are not slowed.
	for i := range 3 {
		if r := b.signIn("ada@example.com", "typo"); r.status != 401 {
			t.Fatalf("failure %d after success: %d", i+1, r.status)
		}
	}
	// An address without an account slows down exactly the same way.
	for range 5 {
		b.signIn("nobody@example.com", "guess")
	}
	retryAfter(t, b.signIn("nobody@example.com", "guess"))
}

func TestAdminsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, map[string]string{"TRIBE_ADMIN_DOMAIN": "ruv.example"}).srv
		confirm := func(b *browser, email string) {
			t.Helper()
			link := confirmLinkRE.FindString(outboxText(t, db, email))
			if r := b.do("GET", pathOf(t, link), nil); r.header.Get("Location") != "/members?confirmed=true" {
				t.Fatalf("confirm %s: %d %q", email, r.status, r.header.Get("Location"))
			}
		}
		if r := newBrowser(t, srv).do("GET", "/api/admin/waitlist", nil); r.status != 401 || r.errCode() != "unauthorized" {
			t.Fatalf("anonymous: %d %s", r.status, r.body)
		}
		staff := newBrowser(t, srv)
		staff.signUp("Staff", "staff@ruv.example", "password1")
		if r := staff.do("GET", "/api/admin/waitlist.csv", nil); r.status != 403 || r.errCode() != "forbidden" {
			t.Fatalf("unconfirmed admin-domain address: %d %s", r.status, r.body)
		}
		if staff.do("GET", "/api/auth/session", nil).user()["is_admin"] != false {
			t.Fatal("is_admin must be false before confirming")
		}
		confirm(staff, "staff@ruv.example")
		if r := staff.do("GET", "/api/admin/waitlist", nil); r.status != 200 {
			t.Fatalf("confirmed admin-domain address: %d", r.status)
		}
		fake := newBrowser(t, srv)
		fake.signUp("Fake", "staff@evilruv.example", "password1")
		confirm(fake, "staff@evilruv.example")
		if r := fake.do("GET", "/api/admin/waitlist", nil); r.status != 403 {
			t.Fatalf("look-alike domain: %d", r.status)
		}
		// An operator grant applies from the next request.
		if _, err := auth.New(db, auth.Config{}).GrantAdmin(context.Background(), "staff@evilruv.example"); err != nil {
			t.Fatal(err)
		}
		if r := fake.do("GET", "/api/admin/waitlist", nil); r.status != 200 {
			t.Fatalf("after an operator grant: %d", r.status)
		}
	})
}

func TestWaitlistOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, map[string]string{"TRIBE_ADMIN_EMAILS": "owner@example.com"}).srv
		v := newBrowser(t, srv)
		r := v.do("POST", "/api/waitlist", map[string]string{"full_name": " Ada Lovelace ", "email": "Ada@Example.com"})
		if r.status != 201 || r.json["status"] != "added" || !strings.Contains(r.json["message"].(string), "on the list") {
			t.Fatalf("join: %d %s", r.status, r.body)
		}
		r = v.do("POST", "/api/waitlist", map[string]string{"full_name": "Ada", "email": " ada@example.COM"})
		if r.status != 200 || r.json["status"] != "already" || !strings.Contains(r.json["message"].(string), "already on the wait list") {
			t.Fatalf("join again: %d %s", r.status, r.body)
		}
		if n := outboxCount(t, db, "Ada@example.com"); n != 1 {
			t.Fatalf("%d confirmation mails; want exactly one", n)
		}
		text := outboxText(t, db, "Ada@example.com")
		for _, want := range []string{"confirms your place", "When spots open up we will e-mail you", "priority access"} {
			if !strings.Contains(text, want) {
				t.Errorf("wait-list mail lacks %q:\n%s", want, text)
			}
		}
		v.do("POST", "/api/waitlist", map[string]string{"full_name": `=HYPERLINK("http://evil","x"), "quoted"`, "email": "mallory@example.com"})
		v.do("POST", "/api/waitlist", map[string]string{"full_name": "-2+3", "email": "@x@example.com"})

		owner := newBrowser(t, srv)
		owner.signUp("Owner", "owner@example.com", "password1")
		link := confirmLinkRE.FindString(outboxText(t, db, "owner@example.com"))
		owner.do("GET", pathOf(t, link), nil)
		r = owner.do("GET", "/api/admin/waitlist", nil)
		entries, _ := r.json["entries"].([]any)
		if r.status != 200 || len(entries) != 2 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		first := entries[0].(map[string]any)
		if first["email"] != "mallory@example.com" || first["id"] == "" || first["created_at"] == "" {
			t.Fatalf("newest first: %v", entries)
		}
		if last := entries[1].(map[string]any); last["full_name"] != "Ada Lovelace" || last["email"] != "Ada@example.com" {
			t.Fatalf("oldest: %v", last)
		}

		r = owner.do("GET", "/api/admin/waitlist.csv", nil)
		if r.status != 200 || r.header.Get("Content-Type") != csvx.ContentType ||
			!strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="waitlist-`) || !strings.HasSuffix(r.body, "\r\n") {
			t.Fatalf("csv: %d %v", r.status, r.header)
		}
		rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Fatalf("csv does not parse: %v\n%s", err, r.body)
		}
		if len(rows) != 3 || strings.Join(rows[0], ",") != "full_name,email,joined_at" {
			t.Fatalf("rows %q", rows)
		}
		if rows[1][0] != `'=HYPERLINK("http://evil","x"), "quoted"` || rows[1][1] != "mallory@example.com" {
			t.Fatalf("formula cell not neutralised: %q", rows[1])
		}
		if rows[2][0] != "Ada Lovelace" {
			t.Fatalf("row %q", rows[2])
		}
		if !strings.Contains(r.body, `"'=HYPERLINK(""http://evil"",""x""), ""quoted"""`) {
			t.Fatalf("quotes must be doubled inside a quoted cell:\n%s", r.body)
		}
	})
}

func TestConfirmLinkExpiryAndResendOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		b := newBrowser(t, srv)
		b.signUp("Ada", "ada@example.com", "analytical")
		old := confirmLinkRE.FindString(outboxText(t, db, "ada@example.com"))
		if _, err := db.Write.ExecContext(context.Background(), `UPDATE email_tokens SET expires_at = $1 WHERE purpose = 'confirm'`,
			store.At(time.Now().Add(-time.Second))); err != nil {
			t.Fatal(err)
		}
		if r := b.do("GET", pathOf(t, old), nil); r.status != 303 || r.header.Get("Location") != "/auth?confirm_error=expired" {
			t.Fatalf("expired link: %d %q", r.status, r.header.Get("Location"))
		}
		r := b.do("POST", "/api/auth/confirm/resend", nil)
		if r.status != 202 || !strings.Contains(r.json["message"].(string), "ada@example.com") {
			t.Fatalf("resend: %d %s", r.status, r.body)
		}
		fresh := confirmLinkRE.FindString(outboxText(t, db, "ada@example.com"))
		if fresh == old {
			t.Fatal("resend must mail a new link")
		}
		b.do("POST", "/api/auth/confirm/resend", nil)
		b.do("POST", "/api/auth/confirm/resend", nil)
		retryAfter(t, b.do("POST", "/api/auth/confirm/resend", nil))
		if r := b.do("GET", pathOf(t, fresh), nil); r.header.Get("Location") != "/members?confirmed=true" {
			t.Fatalf("fresh link: %q", r.header.Get("Location"))
		}
		if b.do("GET", "/api/auth/session", nil).user()["email_confirmed"] != true {
			t.Fatal("not confirmed")
		}
	})
}
