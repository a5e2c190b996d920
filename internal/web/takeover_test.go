package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/community"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

var resetTokenRE = regexp.MustCompile(`/auth\?reset=true&token=([A-Za-z0-9_-]+)`)

// resetAs has the owner of email ask for a reset link and use it, signed
// out, and returns the new session as a test user.
func (m *testSite) resetAs(email, password string) testUser {
	m.t.Helper()
	if r := m.call(testUser{}, "POST", "/api/auth/password/forgot", map[string]string{"email": email}); r.status != 202 {
		m.t.Fatalf("forgot: %d %s", r.status, r.body)
	}
	match := resetTokenRE.FindStringSubmatch(outboxText(m.t.(*testing.T), m.db, email))
	if match == nil {
		m.t.Fatal("no reset link mailed")
	}
	r := m.call(testUser{}, "POST", "/api/auth/password/reset", map[string]string{"token": match[1], "password": password})
	if r.status != 200 {
		m.t.Fatalf("reset: %d %s", r.status, r.body)
	}
	c := sessionCookie(m.t.(*testing.T), r.header)
	return testUser{id: r.user()["id"].(string), token: c.Value}
}

// TestSquattersDataIsClearedOnTakeover: after the owner of an address took
// over the account a squatter had made with it (a password reset), the
// profile still had the squatter's bio, phone, company and avatar, the owner
// was creator and member of the squatter's cohort, and the squatter's open
// Checkout could still be paid onto the owner's account. The takeover now
// clears all of it in the reset's transaction.
func TestSquattersDataIsClearedOnTakeover(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		squatter := m.user("iris@example.org", unconfirmed)
		if r := m.call(squatter, "PUT", "/api/profile", map[string]string{
			"bio": "I am Iris", "phone": "+1 555 0100", "company": "Impostor Inc", "location": "Nowhere", "job_title": "Squatter",
		}); r.status != 200 {
			t.Fatalf("profile: %d %s", r.status, r.body)
		}
		r := m.call(squatter, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "me.png", testPNG(t, 64, 64)))
		if r.status != 200 {
			t.Fatalf("avatar: %d %s", r.status, r.body)
		}
		avatarURL := r.json["profile"].(map[string]any)["avatar_url"].(string)
		avatarFile := filepath.Join(community.AvatarDir(m.cfg.DataDir), strings.TrimPrefix(avatarURL, "/avatars/"))
		if _, err := os.Stat(avatarFile); err != nil {
			t.Fatalf("avatar file: %v", err)
		}
		r = m.call(squatter, "POST", "/api/cohorts", map[string]string{"name": "Iris's circle"})
		if r.status != 201 {
			t.Fatalf("cohort: %d %s", r.status, r.body)
		}
		shared := r.json["cohort"].(map[string]any)["id"].(string)
		friend := m.user("friend@example.org")
		if r := m.call(friend, "POST", "/api/cohorts/"+shared+"/join", nil); r.status != 200 {
			t.Fatalf("join: %d %s", r.status, r.body)
		}
		// A second squatted account whose cohort nobody else joined.
		lone := m.user("lone@example.org", unconfirmed)
		r = m.call(lone, "POST", "/api/cohorts", map[string]string{"name": "Empty room"})
		if r.status != 201 {
			t.Fatalf("cohort: %d %s", r.status, r.body)
		}
		empty := r.json["cohort"].(map[string]any)["id"].(string)
		// An open checkout from before holds needed a confirmed address.
		m.exec(`INSERT INTO checkout_holds (user_id, hold_id, expires_at, checkout_session_id, checkout_url) VALUES ($1, $2, $3, 'cs_squatter', 'https://checkout.stripe.test/c/cs_squatter')`,
			squatter.id, store.NewID(), store.At(time.Now().Add(20*time.Minute)))

		owner := m.resetAs("iris@example.org", "iris's own pw")
		if owner.id != squatter.id {
			t.Fatal("the reset did not take the account over")
		}
		p := m.call(owner, "GET", "/api/profile", nil).json["profile"].(map[string]any)
		for _, f := range []string{"bio", "phone", "company", "location", "job_title"} {
			if p[f] != "" {
				t.Errorf("profile %s kept %q", f, p[f])
			}
		}
		if p["avatar_url"] != nil {
			t.Errorf("avatar kept: %v", p["avatar_url"])
		}
		if _, err := os.Stat(avatarFile); !os.IsNotExist(err) {
			t.Errorf("avatar file kept: %v", err)
		}
		if r := m.call(testUser{}, "GET", avatarURL, nil); r.status != 404 {
			t.Errorf("the squatter's avatar is still served: %d", r.status)
		}
		var creator string
		if err := db.Read.QueryRow(`SELECT created_by FROM cohorts WHERE id = $1`, shared).Scan(&creator); err != nil || creator != friend.id {
			t.Fatalf("shared cohort created by %q (%v), want the friend who stays", creator, err)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM cohort_members WHERE user_id = $1`, owner.id).Scan(&n)
		if n != 0 {
			t.Fatal("the owner is still in the squatter's cohort")
		}
		if exp := fake.Expired(); len(exp) != 1 || exp[0] != "cs_squatter" {
			t.Fatalf("expired sessions %v, want the squatter's", exp)
		}
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM checkout_holds WHERE user_id = $1`, owner.id).Scan(&n)
		if n != 0 {
			t.Fatal("the squatter's hold survived the takeover")
		}

		m.resetAs("lone@example.org", "lone's own pw")
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM cohorts WHERE id = $1`, empty).Scan(&n)
		if n != 0 {
			t.Fatal("a cohort only the squatter was in survived the takeover")
		}
	})
}

// TestOwnResetKeepsTheProfile: a reset of an account whose address was
// already confirmed is its owner's own and clears nothing.
func TestOwnResetKeepsTheProfile(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		ada := m.user("ada@example.org")
		if r := m.call(ada, "PUT", "/api/profile", map[string]string{"bio": "Analyst", "company": "Engines"}); r.status != 200 {
			t.Fatalf("profile: %d %s", r.status, r.body)
		}
		r := m.call(ada, "POST", "/api/cohorts", map[string]string{"name": "Engines"})
		if r.status != 201 {
			t.Fatalf("cohort: %d %s", r.status, r.body)
		}
		again := m.resetAs("ada@example.org", "a new password")
		p := m.call(again, "GET", "/api/profile", nil).json["profile"].(map[string]any)
		if p["bio"] != "Analyst" || p["company"] != "Engines" {
			t.Fatalf("profile after the owner's own reset: %v", p)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM cohort_members WHERE user_id = $1`, ada.id).Scan(&n)
		if n != 1 || len(fake.Expired()) != 0 {
			t.Fatalf("the owner's own reset left the cohort (%d) or expired sessions %v", n, fake.Expired())
		}
	})
}
