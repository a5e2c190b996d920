package web

import (
	"net/url"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestPreHijackedAccountOverHTTP: someone signs up with the owner's address
// (an admin address), subscribes to the calendar feed and stays signed in.
// The owner opens the confirmation mail while signed out: the account stays
// unconfirmed, so the squatter's session never becomes an admin one. The
// owner then resets the password: the squatter's session and feed URL die.
func TestPreHijackedAccountOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, map[string]string{"TRIBE_ADMIN_EMAILS": "owner@example.com"}).srv
		squatter := newBrowser(t, srv)
		if r := squatter.signUp("Mallory Impostor", "owner@example.com", "squatter-pw"); r.status != 201 {
			t.Fatalf("sign-up: %d %s", r.status, r.body)
		}
		r := squatter.do("POST", "/api/calendar/feed", nil)
		if r.status != 201 {
			t.Fatalf("create feed: %d %s", r.status, r.body)
		}
		feedURL, _ := url.Parse(r.json["url"].(string))
		if r := squatter.do("GET", feedURL.Path, nil); r.status != 200 {
			t.Fatalf("feed before: %d", r.status)
		}

		owner := newBrowser(t, srv)
		confirm := confirmLinkRE.FindString(outboxText(t, db, "owner@example.com"))
		if r := owner.do("GET", pathOf(t, confirm), nil); r.status != 303 || strings.HasPrefix(r.header.Get("Location"), "/members") {
			t.Fatalf("confirm link opened signed out: %d %q; it must not confirm", r.status, r.header.Get("Location"))
		}
		if r := squatter.do("GET", "/api/admin/waitlist", nil); r.status != 403 {
			t.Fatalf("the squatter's session became an admin session: %d", r.status)
		}

		if r := owner.do("POST", "/api/auth/password/forgot", map[string]string{"email": "owner@example.com"}); r.status != 202 {
			t.Fatalf("forgot: %d", r.status)
		}
		reset, _ := url.Parse(resetLinkRE.FindString(outboxText(t, db, "owner@example.com")))
		r = owner.do("POST", "/api/auth/password/reset", map[string]string{"token": reset.Query().Get("token"), "password": "owner's own pw"})
		if r.status != 200 || r.user()["email_confirmed"] != true || r.user()["is_admin"] != true {
			t.Fatalf("reset: %d %s", r.status, r.body)
		}
		if squatter.me() != "" {
			t.Fatal("the squatter is still signed in after the owner's reset")
		}
		if r := squatter.do("GET", feedURL.Path, nil); r.status != 404 {
			t.Fatalf("the squatter's feed URL still answers %d after the owner's reset", r.status)
		}
		if r := squatter.signIn("owner@example.com", "squatter-pw"); r.status != 401 {
			t.Fatalf("the squatter's password after the reset: %d", r.status)
		}
		// GET /api/profile tells the front end the name is the squatter's.
		if r := owner.do("GET", "/api/profile", nil); r.json["profile"].(map[string]any)["name_unverified"] != true {
			t.Fatalf("profile after reset: %s", r.body)
		}
		if r := owner.do("PUT", "/api/profile", map[string]string{"full_name": "Ada Owner"}); r.json["profile"].(map[string]any)["name_unverified"] != false {
			t.Fatalf("profile after saving a name: %s", r.body)
		}
	})
}
