package auth

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// addFeed gives the user a calendar-feed row, as community.CreateFeed does,
// and returns its token hash.
func addFeed(t *testing.T, db *store.DB, userID string) string {
	t.Helper()
	_, hash := newToken()
	if _, err := db.Write.ExecContext(context.Background(),
		`INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES ($1, $2, $3)`, userID, hash, store.Now()); err != nil {
		t.Fatalf("add feed: %v", err)
	}
	return hash
}

// addGrant connects an assistant for the user, as the consent page does,
// with an access token, and returns the token's hash.
func addGrant(t *testing.T, db *store.DB, userID string) string {
	t.Helper()
	ctx := context.Background()
	grant := store.NewID()
	_, hash := newToken()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO oauth_clients (id, name, redirect_uris, kind) VALUES ($1, 'Squatter Assistant', '["http://127.0.0.1/cb"]', 'registered') ON CONFLICT DO NOTHING`, []any{"client-" + userID}},
		{`INSERT INTO oauth_grants (id, user_id, client_id, scopes, resource, created_at) VALUES ($1, $2, $3, 'tribe:read', 'https://ruv.example/mcp', $4)`, []any{grant, userID, "client-" + userID, store.Now()}},
		{`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES ($1, $2, 'access', $3)`, []any{hash, grant, store.At(time.Now().Add(time.Hour))}},
	} {
		if _, err := db.Write.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("add grant: %v", err)
		}
	}
	return hash
}

// signedIn is ctx as a request made with the session token: the principal
// the web layer puts there.
func signedIn(t *testing.T, s *Service, token string) context.Context {
	t.Helper()
	p, _, err := s.Authenticate(context.Background(), token)
	if err != nil || p == nil {
		t.Fatalf("authenticate: %v %v", p, err)
	}
	return WithPrincipal(context.Background(), p)
}

// TestResetEndsASquattersSessionsAndFeeds is account pre-hijacking: someone
// signs up with an address they do not own, subscribes to the calendar feed,
// connects an assistant and keeps a session; the real owner resets the password. Afterwards the
// squatter must hold nothing that still acts for the account, and the name
// the squatter typed is reported as unverified.
func TestResetEndsASquattersSessionsAndFeeds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{AdminEmails: []string{"owner@example.com"}}, newClock())
		squatter, squatterSession := signUp(t, s, "Mallory Impostor", "owner@example.com", "squatter-pw")
		feed := addFeed(t, db, squatter.ID)
		assistant := addGrant(t, db, squatter.ID)

		// The owner, signed out, asks for a reset link and uses it.
		if err := s.RequestPasswordReset(ctx, "owner@example.com"); err != nil {
			t.Fatal(err)
		}
		_, text := lastMail(t, db, "owner@example.com")
		owner, ownerSession, err := s.ResetPassword(ctx, linkToken(t, text, "/auth?reset=true&token="), "owner's own pw", Client{})
		if err != nil {
			t.Fatal(err)
		}
		if p, _, _ := s.Authenticate(ctx, squatterSession); p != nil {
			t.Fatal("the squatter's session survived the reset")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM calendar_feeds WHERE token_hash = $1`, feed); n != 0 {
			t.Fatal("the squatter's calendar feed still serves the owner's sessions after the reset")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM oauth_tokens WHERE hash = $1`, assistant); n != 0 {
			t.Fatal("the squatter's assistant still acts for the account after the reset")
		}
		if p, _, _ := s.Authenticate(ctx, ownerSession); p == nil || !p.Admin {
			t.Fatalf("the owner's new session must work and be an admin session: %+v", p)
		}
		if !owner.EmailConfirmed || owner.FullName != "Mallory Impostor" || !owner.NameUnverified {
			t.Fatalf("after the reset: confirmed=%v name=%q name_unverified=%v; the squatter's name must be flagged",
				owner.EmailConfirmed, owner.FullName, owner.NameUnverified)
		}
	})
}

// TestConfirmingNeedsTheAccountsOwnSession: the owner of an address gets a
// confirmation mail for an account someone else made with it and opens the
// link. Confirming would hand the squatter, who knows the password, a
// confirmed (here admin) account: the link only works in a browser signed in
// to that account.
func TestConfirmingNeedsTheAccountsOwnSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{AdminEmails: []string{"owner@example.com"}}, newClock())
		squatter, squatterSession := signUp(t, s, "Mallory", "owner@example.com", "squatter-pw")
		_, text := lastMail(t, db, "owner@example.com")
		token := linkToken(t, text, "/auth/confirm?token=")

		// Signed out, and signed in to another account: refused, link kept.
		_, otherSession := signUp(t, s, "Grace", "grace@example.com", "compilers")
		for _, c := range []context.Context{ctx, signedIn(t, s, otherSession)} {
			err := s.ConfirmEmail(c, token)
			if !errors.Is(err, ErrConfirmNeedsSignIn) || !errs.Is(err, errs.Unauthorized) {
				t.Fatalf("confirm without the account's session: %v, want ErrConfirmNeedsSignIn", err)
			}
		}
		if u, _ := s.User(ctx, squatter.ID); u.EmailConfirmed {
			t.Fatal("the address was confirmed by someone not signed in to the account")
		}
		if p, _, _ := s.Authenticate(ctx, squatterSession); p == nil || p.Admin {
			t.Fatalf("the squatter's session must stay an unconfirmed non-admin session: %+v", p)
		}
		// The owner's way in is a reset (TestResetEndsASquattersSessionsAndFeeds).
	})
}

// TestConfirmingEndsOtherSessionsAndFeeds: confirming from a session of the
// account keeps that session and ends every other one and every feed.
func TestConfirmingEndsOtherSessionsAndFeeds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{AdminEmails: []string{"ada@example.com"}}, newClock())
		u, laptop := signUp(t, s, "Ada", "ada@example.com", "analytical")
		_, phone, err := s.SignIn(ctx, "ada@example.com", "analytical", Client{})
		if err != nil {
			t.Fatal(err)
		}
		feed := addFeed(t, db, u.ID)
		_, text := lastMail(t, db, "ada@example.com")
		if err := s.ConfirmEmail(signedIn(t, s, phone), linkToken(t, text, "/auth/confirm?token=")); err != nil {
			t.Fatal(err)
		}
		if p, _, _ := s.Authenticate(ctx, phone); p == nil || !p.Admin {
			t.Fatalf("the confirming session must stay and now be an admin session: %+v", p)
		}
		if p, _, _ := s.Authenticate(ctx, laptop); p != nil {
			t.Fatal("confirming must end every other session")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM calendar_feeds WHERE token_hash = $1`, feed); n != 0 {
			t.Fatal("confirming must revoke the calendar feed")
		}
		// The confirmer signed up with this name and proved the mailbox.
		if got, _ := s.User(ctx, u.ID); !got.EmailConfirmed || got.NameUnverified {
			t.Fatalf("after confirming: %+v", got)
		}
	})
}

// notAccountCredentials are the token tables that act for no account, each
// with why; every other table with a token_hash column must be in
// credentialTables.
var notAccountCredentials = map[string]string{
	"auth_sessions":    "browser sessions: revokeCredentials ends them itself",
	"email_tokens":     "mailed links, which go to the mailbox just proven",
	"bookings":         "a booking's manage link, mailed to the booker's address; it opens that booking only",
	"booking_tokens":   "further manage links of one booking, mailed like the first",
	"booking_feed":     "the business's one bookings feed, made and revoked by admins, not any account's",
	"oauth_codes":      "an assistant's authorization codes: deleted with their grant (oauth_grants, ON DELETE CASCADE)",
	"oauth_tokens":     "an assistant's access and refresh tokens: deleted with their grant (oauth_grants, ON DELETE CASCADE)",
	"credit_tokens":    "a package's credits link, mailed to the buyer's address; it spends only the credits bought for that address",
	"booking_waitlist": "a wait-list offer link, mailed to the address in line; it opens the one seat held for it",
}

// TestEveryTokenTableIsRevoked keeps revokeCredentials complete: a table
// that stores a token acting for a user (a token_hash column) is either one
// of notAccountCredentials or in credentialTables. A new API-token table
// fails here until it is added.
func TestEveryTokenTableIsRevoked(t *testing.T) {
	tableRE := regexp.MustCompile(`(?is)CREATE TABLE (\w+) \((.*?)\n\);`)
	for _, engine := range []string{"sqlite", "postgres"} {
		dir := filepath.Join("..", "store", "migrations", engine)
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tableRE.FindAllStringSubmatch(string(b), -1) {
				if strings.Contains(m[2], "token_hash") || regexp.MustCompile(`(?m)^\s+hash\s`).MatchString(m[2]) {
					found = append(found, m[1])
				}
			}
		}
		for _, table := range found {
			if _, apart := notAccountCredentials[table]; !apart && !slices.Contains(credentialTables, table) {
				t.Errorf("%s: table %s holds tokens but revokeCredentials does not revoke them; add it to credentialTables", engine, table)
			}
		}
		if !slices.Contains(found, "calendar_feeds") {
			t.Errorf("%s: the schema scan found no calendar_feeds; the check is broken", engine)
		}
	}
}

// TestTakeoverStepsRunInTheResetsTransaction: the steps given WithTakeover
// run only when a reset takes over an unconfirmed account, inside the
// reset's transaction (a failing step leaves the password, the link and the
// squatter's session as they were), and their after-commit work runs once
// the reset is done.
func TestTakeoverStepsRunInTheResetsTransaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var ran, after []string
		fail := true
		step := func(ctx context.Context, tx *sql.Tx, userID string) (func(context.Context), error) {
			if _, err := tx.ExecContext(ctx, `UPDATE profiles SET bio = 'cleared' WHERE id = $1`, userID); err != nil {
				return nil, err
			}
			ran = append(ran, userID)
			if fail {
				return nil, errors.New("step failed")
			}
			return func(context.Context) { after = append(after, userID) }, nil
		}
		s := New(db, Config{BaseURL: "https://ruv.example"}, WithParams(cheap), WithResetFloor(0), WithTakeover(step))
		squatter, squatterSession := signUp(t, s, "Mallory", "iris@example.org", "squatter-pw")
		if err := s.RequestPasswordReset(ctx, "iris@example.org"); err != nil {
			t.Fatal(err)
		}
		token := linkToken(t, lastMailAbout(t, db, "iris@example.org", "Reset your password"), "/auth?reset=true&token=")
		if _, _, err := s.ResetPassword(ctx, token, "iris's own pw", Client{}); err == nil {
			t.Fatal("a failing step did not fail the reset")
		}
		if p, _, _ := s.Authenticate(ctx, squatterSession); p == nil {
			t.Fatal("a failed takeover ended the squatter's session anyway")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM profiles WHERE id = $1 AND bio = 'cleared'`, squatter.ID); n != 0 || len(after) != 0 {
			t.Fatal("a failed takeover left changes behind")
		}
		fail = false
		if _, _, err := s.ResetPassword(ctx, token, "iris's own pw", Client{}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM profiles WHERE id = $1 AND bio = 'cleared'`, squatter.ID); n != 1 || len(after) != 1 {
			t.Fatalf("takeover: cleared %d, after-commit work %v", n, after)
		}
		// The owner's own later reset is no takeover.
		ran = nil
		if err := s.RequestPasswordReset(ctx, "iris@example.org"); err != nil {
			t.Fatal(err)
		}
		token = linkToken(t, lastMailAbout(t, db, "iris@example.org", "Reset your password"), "/auth?reset=true&token=")
		if _, _, err := s.ResetPassword(ctx, token, "another pw", Client{}); err != nil || len(ran) != 0 {
			t.Fatalf("a confirmed account's reset ran the takeover: %v %v", ran, err)
		}
	})
}
