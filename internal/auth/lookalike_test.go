package auth

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// lookalikes of iris@example.org that strings.ToLower used to fold onto it,
// and spellings of the same mailbox that IDNA maps onto it.
var (
	lookalikeLocals = []string{
		"\u0130ris@example.org",                // U+0130 İ
		"\u212Aate@example.org",                // U+212A Kelvin sign (against kate@)
		"\uff49\uff52\uff49\uff53@example.org", // full-width iris
	}
	sameMailbox = []string{
		"IRIS@EXAMPLE.ORG",
		"iris@\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.org", // full-width domain: the same name to DNS
	}
)

// TestLookalikeAddressCannotSquatAccount: signing up as İris@example.org (or
// with the Kelvin sign, or full-width letters) used to take the key
// iris@example.org, so the real owner got 409 email_taken, their reset mail
// went to the squatter's spelling and operator commands acted on the
// squatter's account. Such spellings are now refused at every door, and
// spellings IDNA maps onto the same mailbox reach the owner's account.
func TestLookalikeAddressCannotSquatAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{}, newClock())
		for _, typed := range append(lookalikeLocals, "iris@ex\u0430mple.org") { // and a Cyrillic а in the domain
			_, _, err := s.SignUp(ctx, SignUpInput{FullName: "Mallory", Email: typed, Password: "squatter-pw"}, Client{})
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != "email" {
				t.Fatalf("sign-up as %q: %v, want an invalid e-mail", typed, err)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatalf("look-alike sign-ups wrote %d accounts", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox`); n != 0 {
			t.Fatalf("look-alike sign-ups queued %d mails", n)
		}

		iris, _ := signUp(t, s, "Iris", "iris@example.org", "iris's own pw")
		kate, _ := signUp(t, s, "Kate", "kate@example.org", "kate's own pw")
		for _, typed := range sameMailbox {
			_, _, err := s.SignUp(ctx, SignUpInput{FullName: "Mallory", Email: typed, Password: "squatter-pw"}, Client{})
			if !errors.Is(err, ErrEmailTaken) {
				t.Fatalf("sign-up as %q: %v, want email_taken (the same mailbox)", typed, err)
			}
		}
		if subject, _ := lastMail(t, db, "iris@example.org"); subject != "Someone tried to sign up with your e-mail address" {
			t.Fatalf("the owner was not told: %q", subject)
		}

		// Sign-in, reset and operator commands: the look-alike spellings
		// are refused, never read as the owner's address.
		for _, typed := range lookalikeLocals {
			if _, _, err := s.SignIn(ctx, typed, "iris's own pw", Client{}); !errs.Is(err, errs.Invalid) {
				t.Errorf("sign-in as %q: %v, want invalid", typed, err)
			}
			if err := s.RequestPasswordReset(ctx, typed); !errs.Is(err, errs.Invalid) {
				t.Errorf("reset for %q: %v, want invalid", typed, err)
			}
			if _, err := s.GrantAdmin(ctx, typed); err == nil {
				t.Errorf("grant to %q succeeded", typed)
			}
			if _, _, err := s.LookupEmail(ctx, typed); err == nil {
				t.Errorf("operator lookup of %q found an account", typed)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM user_roles`); n != 0 {
			t.Fatalf("%d roles granted through look-alikes", n)
		}
		for _, typed := range sameMailbox {
			u, _, err := s.SignIn(ctx, typed, "iris's own pw", Client{})
			if err != nil || u.ID != iris.ID {
				t.Fatalf("sign-in as %q: %v %v", typed, u, err)
			}
		}
		if err := s.RequestPasswordReset(ctx, sameMailbox[1]); err != nil {
			t.Fatal(err)
		}
		if subject, _ := lastMail(t, db, "iris@example.org"); subject != "Reset your password" {
			t.Fatalf("reset mail for the full-width domain went elsewhere: %q", subject)
		}
		var to []string
		rows, err := db.Read.QueryContext(ctx, `SELECT DISTINCT to_addr FROM mail_outbox`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a string
			_ = rows.Scan(&a)
			to = append(to, a)
		}
		_ = rows.Close()
		for _, a := range to {
			if a != "iris@example.org" && a != "kate@example.org" {
				t.Fatalf("mail queued to %q", a)
			}
		}
		if id, _, err := s.LookupEmail(ctx, "KATE@example.org"); err != nil || id != kate.ID {
			t.Fatalf("operator lookup of the real address: %q %v", id, err)
		}
	})
}

// TestLookalikeAddressCannotBecomeAdmin: with TRIBE_ADMIN_DOMAIN=ibm.example,
// an address at İbm.example (another, registrable domain) used to compare
// equal after lower-casing and became an admin once confirmed. Configured
// admins now match only their exact normalised form.
func TestLookalikeAddressCannotBecomeAdmin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{AdminDomain: "IBM.example", AdminEmails: []string{"Boss@Example.org", "\u0130ris@example.org"}}, newClock())
		confirmed := func(email string) string {
			t.Helper()
			u, token := signUp(t, s, "Someone", email, "password1")
			_, text := lastMail(t, db, u.Email)
			if err := s.ConfirmEmail(signedIn(t, s, token), linkToken(t, text, "/auth/confirm?token=")); err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		lookalike := confirmed("ops@\u0130bm.example")
		u, err := s.User(ctx, lookalike)
		if err != nil {
			t.Fatal(err)
		}
		if u.IsAdmin || !strings.HasPrefix(u.Email, "ops@xn--") {
			t.Fatalf("ops@İbm.example: %+v, want no admin, kept in its xn-- form", u)
		}
		if s.IsConfiguredAdmin("ops@\u0130bm.example") || s.IsConfiguredAdmin("boss@sub.ibm.example") {
			t.Fatal("a look-alike or a subdomain of the admin domain is configured as admin")
		}
		// A configured address that the rule refuses names nobody.
		iris := confirmed("iris@example.org")
		if u, _ := s.User(ctx, iris); u.IsAdmin {
			t.Fatal("iris@example.org became an admin through the configured İris@example.org")
		}
		// The configured forms themselves still work, in any case.
		if u, _ := s.User(ctx, confirmed("boss@EXAMPLE.org")); !u.IsAdmin {
			t.Fatal("the configured admin address is no admin")
		}
		if u, _ := s.User(ctx, confirmed("staff@\uff49\uff42\uff4d.example")); !u.IsAdmin || u.Email != "staff@ibm.example" {
			t.Fatalf("an address at the admin domain (typed full-width) is %+v", u)
		}
		list, err := s.ListAdmins(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list {
			if e.Email != "boss@example.org" && e.Email != "staff@ibm.example" {
				t.Fatalf("admin list holds %+v", e)
			}
		}
	})
}

// TestLegacyLookalikeRowsStopBlockingTheOwner: an account made before the
// rule with İris@example.org holds the key iris@example.org. The migration
// gives it a key no address has, so the owner can sign up and reset mail
// never goes to the look-alike spelling.
func TestLegacyLookalikeRowsStopBlockingTheOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{}, newClock())
		legacy, ascii := store.NewID(), store.NewID()
		for id, email := range map[string]string{legacy: "\u0130ris@example.org", ascii: "Kate@example.org"} {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'x')`,
				id, email, strings.ToLower(email)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Write.ExecContext(ctx,
			`INSERT INTO waitlist (id, full_name, email, email_normalized) VALUES ($1, 'Mallory', $2, 'iris@example.org')`,
			store.NewID(), "\u0130ris@example.org"); err != nil {
			t.Fatal(err)
		}
		migs, err := store.Migrations(db.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		for _, m := range migs {
			if m.Name == "0008_addresses" {
				for range 2 { // it may run twice
					if _, err := db.Write.ExecContext(ctx, m.SQL); err != nil {
						t.Fatal(err)
					}
				}
				ran = true
			}
		}
		if !ran {
			t.Fatal("no migration 0008_addresses")
		}
		var key string
		if err := db.Read.QueryRowContext(ctx, `SELECT email_normalized FROM users WHERE id = $1`, legacy).Scan(&key); err != nil || key != "legacy:"+legacy {
			t.Fatalf("legacy key %q %v", key, err)
		}
		if err := db.Read.QueryRowContext(ctx, `SELECT email_normalized FROM users WHERE id = $1`, ascii).Scan(&key); err != nil || key != "kate@example.org" {
			t.Fatalf("an ASCII address changed: %q %v", key, err)
		}
		if err := s.RequestPasswordReset(ctx, "iris@example.org"); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox`); n != 0 {
			t.Fatalf("a reset for iris@example.org queued %d mails (to the look-alike)", n)
		}
		iris, _ := signUp(t, s, "Iris", "iris@example.org", "iris's own pw")
		if iris.ID == legacy {
			t.Fatal("the owner got the legacy account")
		}
		if _, _, err := s.SignUp(ctx, SignUpInput{FullName: "Kate", Email: "kate@example.org", Password: "password1"}, Client{}); !errors.Is(err, ErrEmailTaken) {
			t.Fatalf("an ASCII legacy address stopped counting: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM waitlist WHERE email_normalized = 'iris@example.org'`); n != 0 {
			t.Fatal("the wait list still holds the look-alike under the owner's key")
		}
	})
}
