package web

import (
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestLookalikeAddressIsRefusedAtEveryDoor: sign-up, sign-in, the reset
// request and the wait list answer a look-alike spelling of someone's
// address (U+0130 İ, the Kelvin sign, full-width letters, a Cyrillic а in
// the domain) with 400 and a message about the e-mail field, and none of
// them blocks or reaches the real iris@example.org.
func TestLookalikeAddressIsRefusedAtEveryDoor(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := newTestSite(t, db, nil).srv
		b := newBrowser(t, srv)
		for _, typed := range []string{"\u0130ris@example.org", "\u212Aris@example.org", "\uff49ris@example.org", "iris@ex\u0430mple.org"} {
			for _, r := range []reply{
				b.signUp("Mallory", typed, "squatter-pw"),
				b.signIn(typed, "squatter-pw"),
				b.do("POST", "/api/auth/password/forgot", map[string]string{"email": typed}),
				b.do("POST", "/api/waitlist", map[string]string{"full_name": "Mallory", "email": typed}),
			} {
				e, _ := r.json["error"].(map[string]any)
				if r.status != 400 || e["code"] != "invalid" || e["field"] != "email" || e["message"] == "" {
					t.Fatalf("%q: %d %s", typed, r.status, r.body)
				}
			}
		}
		if r := b.signUp("Iris", "iris@example.org", "iris's own pw"); r.status != 201 {
			t.Fatalf("the owner's sign-up: %d %s", r.status, r.body)
		}
		if n := outboxCount(t, db, "iris@example.org"); n != 1 {
			t.Fatalf("%d mails to the owner, want the one confirmation", n)
		}
	})
}
