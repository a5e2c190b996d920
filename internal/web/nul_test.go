package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// wildcard matches a path wildcard of a route pattern ({id}, {name...}).
var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// TestNULByteIsRefused: a NUL byte gave HTTP 500 on PostgreSQL only (its
// text types cannot hold one), as %00 in the {id} of 13 routes and in
// sign-in's e-mail. Every route with a path parameter, called with %00 in
// it, and every text input is now answered 400 with the JSON error, on
// both engines, by every role.
func TestNULByteIsRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_ADDR"] = "127.0.0.1:8080"
		m := newTestSite(t, db, env)
		callers := []testUser{{}, m.user("member@example.com"), m.user(membersAdminEmail)}
		withParam := 0
		for _, pattern := range m.s.routes {
			method, path, ok := strings.Cut(pattern, " ")
			if !ok || !wildcard.MatchString(path) {
				continue
			}
			withParam++
			path = wildcard.ReplaceAllString(path, "a%00b")
			var body any
			if method != http.MethodGet && method != http.MethodDelete {
				body = "{}"
			}
			for i, u := range callers {
				r := m.call(u, method, path, body)
				if r.status != http.StatusBadRequest || r.json["error"] == nil {
					t.Errorf("%s %s as caller %d: %d %.200s, want 400 with the JSON error", method, path, i, r.status, r.body)
				}
			}
		}
		if withParam < 13 {
			t.Fatalf("only %d routes with a path parameter; the table lost its routes", withParam)
		}
		t.Logf("%d routes with a path parameter refused %%00", withParam)

		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/auth/signin", `{"email":"a\u0000@example.com","password":"whatever-long"}`},
			{"POST", "/api/auth/signup", `{"email":"nul\u0000@example.com","password":"correct horse battery","full_name":"N"}`},
			{"POST", "/api/auth/password/forgot", `{"email":"a\u0000@example.com"}`},
			{"POST", "/api/waitlist", `{"full_name":"Nul\u0000","email":"nul@example.com"}`},
			{"POST", "/api/search", `{"query":"a\u0000b"}`},
			{"GET", "/auth/confirm?token=a%00b", nil},
			{"GET", "/api/sessions?x=%00", nil},
		} {
			if r := m.call(testUser{}, c.method, c.path, c.body); r.status != http.StatusBadRequest || r.json["error"] == nil {
				t.Errorf("%s %s %v: %d %.200s, want 400", c.method, c.path, c.body, r.status, r.body)
			}
		}
		// Text that merely shows the escape is not a NUL.
		if r := m.call(testUser{}, "POST", "/api/waitlist", `{"full_name":"Back\\u0000slash","email":"esc@example.com"}`); r.status != http.StatusCreated {
			t.Errorf(`a name holding the text \u0000: %d %s`, r.status, r.body)
		}
	})
}
