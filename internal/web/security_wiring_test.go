package web

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// A confirmation link works only in a browser signed in to its account, and
// a name typed before the address was proven is flagged until the owner saves one.
func TestConfirmNeedsTheAccountsSessionAndNamesAreFlagged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		squatter := newBrowser(t, srv)
		squatter.signUp("Mallory Impostor", "owner@example.com", "squatter-pw")
		owner := newBrowser(t, srv)
		confirm := confirmLinkRE.FindString(outboxText(t, db, "owner@example.com"))
		if r := owner.do("GET", pathOf(t, confirm), nil); r.header.Get("Location") != "/auth?confirm_error=signin" {
			t.Fatalf("confirm signed out: %q", r.header.Get("Location"))
		}
		if u := squatter.do("GET", "/api/auth/session", nil).user(); u["name_unverified"] != false {
			t.Fatalf("an unconfirmed account's own name is not unverified: %v", u)
		}
		owner.do("POST", "/api/auth/password/forgot", map[string]string{"email": "owner@example.com"})
		reset, _ := url.Parse(resetLinkRE.FindString(outboxText(t, db, "owner@example.com")))
		r := owner.do("POST", "/api/auth/password/reset", map[string]string{"token": reset.Query().Get("token"), "password": "owner's own pw"})
		if r.status != 200 || r.user()["name_unverified"] != true {
			t.Fatalf("reset: %d %s", r.status, r.body)
		}
		if u := squatter.do("GET", "/api/auth/session", nil).user(); u != nil {
			t.Fatalf("the squatter's session outlived the owner's reset: %v", u)
		}
		owner.do("PUT", "/api/profile", map[string]string{"full_name": "Ada Owner"})
		if u := owner.do("GET", "/api/auth/session", nil).user(); u["name_unverified"] != false || u["full_name"] != "Ada Owner" {
			t.Fatalf("after saving a name: %v", u)
		}
	})
}

func TestSignInLockoutCannotBeTargeted(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	srv := newTestSite(t, db, map[string]string{"TRIBE_TRUSTED_PROXIES": "127.0.0.1"}).srv
	newBrowser(t, srv).signUp("Ada", "ada@example.com", "analytical")
	signIn := func(ip, password string) reply {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+"/api/auth/signin", strings.NewReader(`{"email":"ada@example.com","password":"`+password+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", ip)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		r := reply{status: resp.StatusCode, header: resp.Header, body: string(body)}
		_ = json.Unmarshal(body, &r.json)
		return r
	}
	for i := range 5 {
		if r := signIn("203.0.113.9", "guess"); r.status != 401 {
			t.Fatalf("attacker failure %d: %d", i+1, r.status)
		}
	}
	retryAfter(t, signIn("203.0.113.9", "analytical"))
	if r := signIn("198.51.100.7", "analytical"); r.status != 200 {
		t.Fatalf("the owner from another address: %d %s", r.status, r.body)
	}
}

// pngHeader is the start of a PNG of w × h 16-bit RGBA: enough for the header check.
func pngHeader(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 16, 6
	b.Write(ihdr)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte("IHDR"), ihdr...)))
	return b.Bytes()
}

func TestAvatarBombAndUploadLimitOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		u := m.user("ada@example.com")
		r := m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "bomb.png", pngHeader(6324, 6324)))
		if r.status != 413 || r.errCode() != "too_large" || r.errMessage() != "The image is too large: at most 2896 × 2896 pixels." {
			t.Fatalf("bomb: %d %s", r.status, r.body)
		}
		for range 4 {
			m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "a.png", testPNG(t, 8, 8)))
		}
		r = m.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "a.png", testPNG(t, 8, 8)))
		if r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("sixth upload: %d %s", r.status, r.body)
		}
	})
}

func TestRequestLogHasNoSecrets(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	var logs syncBuffer
	site := newTestSite(t, db, nil, withLog(&logs))
	const secret = "Q2FsZW5kYXIgZmVlZCB0b2tlbiBvZiA0MyBjaGFycy4x"
	for _, target := range []string{"/calendar/" + secret + ".ics", "/auth/confirm?token=" + secret, "/auth?reset=true&token=" + secret} {
		site.h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, target, nil))
	}
	if strings.Contains(logs.String(), secret) || !strings.Contains(logs.String(), "/calendar/[redacted].ics") {
		t.Fatalf("request log:\n%s", logs.String())
	}
}

func TestNewRefusalsOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		u := m.user("ada@example.com")
		admin := m.user(membersAdminEmail)
		past := sessionBody()
		past["session_date"] = "2020-01-07"
		id := m.call(admin, "POST", "/api/admin/sessions", past).json["session"].(map[string]any)["id"].(string)
		for _, c := range []struct {
			who          testUser
			method, path string
			body         any
			msg          string
		}{
			{u, "PUT", "/api/profile", map[string]string{"full_name": "\u200B"}, "Full name is required."},
			{u, "PUT", "/api/profile", map[string]string{"full_name": "Ada\u0007"}, "Full name cannot contain control characters."},
			{u, "POST", "/api/cohorts", map[string]string{"name": "\u3164"}, "Cohort name is required."},
			{u, "POST", "/api/cohorts", map[string]string{"name": "A", "github_url": "https://u:p@github.com/x"}, "Links must not contain a user name or password (user:password@)."},
			{admin, "PUT", "/api/admin/sessions/" + id + "/status", map[string]string{"status": "cancelled"}, "This session is over: it can only be marked completed."},
		} {
			if r := m.call(c.who, c.method, c.path, c.body); r.status != 400 || r.errCode() != "invalid" || r.errMessage() != c.msg {
				t.Errorf("%s %s %v: %d %s", c.method, c.path, c.body, r.status, r.body)
			}
		}
		if r := newBrowser(t, m.srv).signUp("\u200B", "zw@example.com", "password1"); r.status != 400 || r.errMessage() != "Full name is required." {
			t.Errorf("sign-up with an invisible name: %d %s", r.status, r.body)
		}
	})
}
