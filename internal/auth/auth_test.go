package auth

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// cheap keeps tests fast; production uses DefaultParams.
var cheap = Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// newClock is the service's clock in these tests; they move it past expiries.
func newClock() *clocktest.Clock { return clocktest.New() }

func newService(db *store.DB, cfg Config, c *clocktest.Clock) *Service {
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://ruv.example"
	}
	return New(db, cfg, WithParams(cheap), WithClock(c.Now), WithResetFloor(0))
}

func signUp(t *testing.T, s *Service, name, email, password string) (*User, string) {
	t.Helper()
	u, token, err := s.SignUp(context.Background(), SignUpInput{FullName: name, Email: email, Password: password}, Client{UserAgent: "test", IP: "127.0.0.1"})
	if err != nil {
		t.Fatalf("sign up %s: %v", email, err)
	}
	return u, token
}

// lastMail returns the newest outbox message to addr. SQLite keeps
// milliseconds, so two mails of one request can share a created_at; its
// rowid tells their order (PostgreSQL keeps microseconds).
func lastMail(t *testing.T, db *store.DB, addr string) (subject, text string) {
	t.Helper()
	tie := "id DESC"
	if db.Dialect == store.SQLite {
		tie = "rowid DESC"
	}
	err := db.Read.QueryRowContext(context.Background(),
		`SELECT subject, text_body FROM mail_outbox WHERE to_addr = $1 ORDER BY created_at DESC, `+tie+` LIMIT 1`, addr).Scan(&subject, &text)
	if err != nil {
		t.Fatalf("no mail to %s: %v", addr, err)
	}
	return subject, text
}

// lastMailAbout is the newest mail to addr with the subject. Mails written
// within one millisecond share a created_at and their random ids do not
// order them, so a test that sends two kinds back to back asks by subject.
func lastMailAbout(t *testing.T, db *store.DB, addr, subject string) string {
	t.Helper()
	var text string
	err := db.Read.QueryRowContext(context.Background(),
		`SELECT text_body FROM mail_outbox WHERE to_addr = $1 AND subject = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
		addr, subject).Scan(&text)
	if err != nil {
		t.Fatalf("no mail %q to %s: %v", subject, addr, err)
	}
	return text
}

func mailCount(t *testing.T, db *store.DB, addr string) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = $1`, addr).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func count(t *testing.T, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

var tokenRE = regexp.MustCompile(`token=([A-Za-z0-9_-]+)`)

func linkToken(t *testing.T, text, prefix string) string {
	t.Helper()
	i := strings.Index(text, prefix)
	if i < 0 {
		t.Fatalf("mail lacks a link starting %s:\n%s", prefix, text)
	}
	m := tokenRE.FindStringSubmatch(text[i:])
	if m == nil {
		t.Fatalf("no token in link:\n%s", text[i:])
	}
	return m[1]
}

func TestPasswordHashing(t *testing.T) {
	h, err := HashPassword("correct horse", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`).MatchString(h) {
		t.Fatalf("not a PHC argon2id string: %s", h)
	}
	h2, _ := HashPassword("correct horse", cheap)
	if h == h2 {
		t.Fatal("two hashes of one password must differ (random salt)")
	}
	if ok, err := VerifyPassword("correct horse", h); !ok || err != nil {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, _ := VerifyPassword("correct horsE", h); ok {
		t.Fatal("wrong password verified")
	}
	if _, err := VerifyPassword("x", "$2a$10$bcrypt"); err == nil {
		t.Fatal("a foreign hash must be an error")
	}
	if !needsRehash(h, DefaultParams) || needsRehash(h, cheap) {
		t.Fatal("needsRehash must compare parameters")
	}
}

func TestValidation(t *testing.T) {
	cases := []struct {
		in    SignUpInput
		field string
		msg   string
	}{
		{SignUpInput{"", "a@b.co", "password1"}, "full_name", "Full name is required."},
		{SignUpInput{"   ", "a@b.co", "password1"}, "full_name", "Full name is required."},
		{SignUpInput{strings.Repeat("x", 121), "a@b.co", "password1"}, "full_name", "at most 120"},
		{SignUpInput{"Ada", "", "password1"}, "email", "E-mail is required."},
		{SignUpInput{"Ada", "not-an-address", "password1"}, "email", "valid e-mail"},
		{SignUpInput{"Ada", "Ada <a@b.co>", "password1"}, "email", "valid e-mail"},
		{SignUpInput{"Ada", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) + ".co", "password1"}, "email", "at most 254"},
		{SignUpInput{"Ada", strings.Repeat("a", 65) + "@b.co", "password1"}, "email", "at most 64"},
		{SignUpInput{"Ada", "a@b.co", "short"}, "password", "Password must be at least 8 characters."},
		{SignUpInput{"Ada", "a@b.co", strings.Repeat("p", 1025)}, "password", "at most 1024"},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db, Config{}, newClock())
		for _, c := range cases {
			_, _, err := s.SignUp(context.Background(), c.in, Client{})
			var v *errs.Error
			if !errors.As(err, &v) || v.Field != c.field || !strings.Contains(v.Message, c.msg) {
				t.Errorf("%+v: got %v, want %s error %q", c.in, err, c.field, c.msg)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatalf("invalid sign-ups wrote %d users", n)
		}
		// Exactly 8 characters (runes, not bytes) is enough; 120-rune names fit.
		signUp(t, s, strings.Repeat("é", 120), "ok@b.co", "ééééé123")
	})
}

func TestSignUpCreatesAccountProfileConfirmationAndSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(db, Config{}, newClock())
		u, token := signUp(t, s, "  Ada Lovelace ", "  Ada@Example.COM ", "analytical")
		// The domain is kept in lower case (its IDNA form), the local part as typed.
		if u.Email != "Ada@example.com" || u.FullName != "Ada Lovelace" || u.EmailConfirmed || u.IsAdmin || u.Subscription != nil {
			t.Fatalf("user %+v", u)
		}
		var norm, profileEmail string
		if err := db.Read.QueryRowContext(ctx, `SELECT u.email_normalized, p.email FROM users u JOIN profiles p ON p.id = u.id WHERE u.id = $1`, u.ID).Scan(&norm, &profileEmail); err != nil {
			t.Fatal(err)
		}
		if norm != "ada@example.com" || profileEmail != "Ada@example.com" {
			t.Fatalf("normalized %q profile e-mail %q", norm, profileEmail)
		}
		var hash string
		_ = db.Read.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = $1`, u.ID).Scan(&hash)
		if !strings.HasPrefix(hash, "$argon2id$") || strings.Contains(hash, "analytical") {
			t.Fatalf("stored hash %q", hash)
		}
		subject, text := lastMail(t, db, "Ada@example.com")
		if subject != "Confirm your e-mail address" || !strings.Contains(text, "https://ruv.example/auth/confirm?token=") {
			t.Fatalf("confirmation mail %q:\n%s", subject, text)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM auth_sessions WHERE token_hash = $1 AND user_id = $2`, HashToken(token), u.ID); n != 1 {
			t.Fatal("the session is not stored under the hash of its token")
		}
		if n := count(t, db, `SELECT COUNT(*) FROM auth_sessions WHERE token_hash = $1`, token); n != 0 {
			t.Fatal("the raw token must never be stored")
		}
		p, _, err := s.Authenticate(ctx, token)
		if err != nil || p == nil || p.UserID != u.ID || p.Email != "Ada@example.com" || p.EmailConfirmed || p.Admin {
			t.Fatalf("authenticate: %+v %v", p, err)
		}
	})
}

func TestEmailTakenIsCaseInsensitiveAndTellsTheOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db, Config{}, newClock())
		signUp(t, s, "Ada", "ada@example.com", "analytical")
		_, _, err := s.SignUp(context.Background(), SignUpInput{"Mallory", " ADA@example.com", "something else"}, Client{})
		if !errors.Is(err, ErrEmailTaken) {
			t.Fatalf("got %v, want ErrEmailTaken", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users`); n != 1 {
			t.Fatalf("%d users", n)
		}
		subject, text := lastMail(t, db, "ada@example.com")
		if subject != "Someone tried to sign up with your e-mail address" || !strings.Contains(text, "https://ruv.example/auth") {
			t.Fatalf("notice %q:\n%s", subject, text)
		}
	})
}

func TestConcurrentSignUpMakesExactlyOneAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db, Config{}, newClock())
		const n = 20
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				email := "race@example.com"
				if i%2 == 1 {
					email = " Race@Example.com"
				}
				_, _, errs[i] = s.SignUp(context.Background(), SignUpInput{"Racer", email, "password123"}, Client{})
			})
		}
		wg.Wait()
		ok, taken := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrEmailTaken):
				taken++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		if ok != 1 || taken != n-1 {
			t.Fatalf("%d succeeded, %d taken; want 1 and %d", ok, taken, n-1)
		}
		if u, p := count(t, db, `SELECT COUNT(*) FROM users`), count(t, db, `SELECT COUNT(*) FROM profiles`); u != 1 || p != 1 {
			t.Fatalf("%d users, %d profiles", u, p)
		}
		if c := count(t, db, `SELECT COUNT(*) FROM auth_sessions`); c != 1 {
			t.Fatalf("%d sessions", c)
		}
	})
}

func TestSignInUnknownAndWrongPasswordLookTheSame(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// Real parameters, so the hashing work dominates and can be compared.
		s := New(db, Config{BaseURL: "https://ruv.example"})
		u, _, err := s.SignUp(ctx, SignUpInput{"Ada", "ada@example.com", "analytical"}, Client{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.SignIn(ctx, "nobody@example.com", "analytical", Client{})
		if !errors.Is(err, ErrInvalidCredentials) {
			t.Fatalf("unknown address: %v", err)
		}
		// Both answers must cost one password verification with the same
		// parameters. Timing them is at the mercy of a busy machine, so the
		// test checks the work itself: with every hashing slot taken, each
		// sign-in waits for a slot (it is about to verify a hash) until its
		// context ends, instead of answering at once.
		for range cap(s.hashSlots) {
			s.hashSlots <- struct{}{}
		}
		for _, email := range []string{"ada@example.com", "nobody@example.com"} {
			waitCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			_, _, err := s.SignIn(waitCtx, email, "wrong password", Client{})
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%.30s: %v, want a wait for a hashing slot", email, err)
			}
		}
		for range cap(s.hashSlots) {
			<-s.hashSlots
		}
		var stored string
		if err := db.Read.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = $1`, u.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if params := func(h string) string { return h[:strings.LastIndex(h[:strings.LastIndex(h, "$")], "$")] }; params(s.dummy()) != params(stored) {
			t.Fatalf("the decoy hash %q is not made like a real one %q", params(s.dummy()), params(stored))
		}
		for _, email := range []string{"ada@example.com", "nobody@example.com"} {
			if _, _, err := s.SignIn(ctx, email, "wrong password", Client{}); !errors.Is(err, ErrInvalidCredentials) {
				t.Fatalf("%s: %v, want ErrInvalidCredentials", email, err)
			}
		}
		got, token, err := s.SignIn(ctx, " ADA@example.com ", "analytical", Client{})
		if err != nil || got.ID != u.ID || token == "" {
			t.Fatalf("right password: %v %v", got, err)
		}
		// What is no address at all cannot have an account, whoever asks:
		// it is refused as input, before any account is looked up.
		for _, email := range []string{"", strings.Repeat("x", MaxEmailLen+1) + "@example.com", "\u0130da@example.com"} {
			if _, _, err := s.SignIn(ctx, email, "x", Client{}); !errs.Is(err, errs.Invalid) {
				t.Fatalf("%.30q: %v, want an invalid address", email, err)
			}
		}
	})
}

func TestSignInUpgradesWeakHashes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		weak := newService(db, Config{}, c)
		u, _ := signUp(t, weak, "Ada", "ada@example.com", "analytical")
		stronger := New(db, Config{}, WithParams(Params{Memory: 2048, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}), WithClock(c.Now))
		if _, _, err := stronger.SignIn(ctx, "ada@example.com", "analytical", Client{}); err != nil {
			t.Fatal(err)
		}
		var hash string
		_ = db.Read.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = $1`, u.ID).Scan(&hash)
		if !strings.Contains(hash, "m=2048,t=2,p=1") {
			t.Fatalf("hash not upgraded: %s", hash)
		}
		if _, _, err := stronger.SignIn(ctx, "ada@example.com", "analytical", Client{}); err != nil {
			t.Fatalf("the upgraded hash must verify: %v", err)
		}
	})
}

func TestSessionRenewalExpiryAndSignOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, Config{}, c)
		u, first := signUp(t, s, "Ada", "ada@example.com", "analytical")
		expiry := func(token string) time.Time {
			var e store.Time
			if err := db.Read.QueryRowContext(ctx, `SELECT expires_at FROM auth_sessions WHERE token_hash = $1`, HashToken(token)).Scan(&e); err != nil {
				t.Fatal(err)
			}
			return e.Time
		}
		start := expiry(first)
		if d := start.Sub(c.Now()); d < SessionTTL-time.Second || d > SessionTTL+time.Second {
			t.Fatalf("new session lives %v, want %v", d, SessionTTL)
		}
		c.Advance(time.Minute)
		if p, renewed, _ := s.Authenticate(ctx, first); p == nil || renewed {
			t.Fatalf("within RenewEvery: p=%v renewed=%v (want valid, not renewed)", p, renewed)
		}
		if !expiry(first).Equal(start) {
			t.Fatal("a request within RenewEvery must not write")
		}
		c.Advance(RenewEvery)
		if p, renewed, _ := s.Authenticate(ctx, first); p == nil || !renewed {
			t.Fatalf("after RenewEvery: p=%v renewed=%v (want renewed)", p, renewed)
		}
		if got := expiry(first); !got.After(start) || got.Sub(c.Now()) < SessionTTL-time.Second {
			t.Fatalf("renewal did not slide the expiry: %v -> %v", start, got)
		}
		// Idle just under 30 days: still valid; then past it: gone.
		c.Advance(SessionTTL - time.Minute)
		if p, _, _ := s.Authenticate(ctx, first); p == nil {
			t.Fatal("a session used within 30 days must still work")
		}
		c.Advance(SessionTTL + time.Minute)
		if p, _, _ := s.Authenticate(ctx, first); p != nil {
			t.Fatal("a session idle for more than 30 days must be refused")
		}
		if err := s.ForgetSession(ctx, first); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM auth_sessions WHERE token_hash = $1`, HashToken(first)); n != 0 {
			t.Fatal("the expired session must be deleted")
		}
		if p, _, _ := s.Authenticate(ctx, "made-up"); p != nil {
			t.Fatal("an unknown token authenticated")
		}

		// Local sign-out ends one session; global ends all of them.
		_, a, _ := s.SignIn(ctx, "ada@example.com", "analytical", Client{})
		_, b, _ := s.SignIn(ctx, "ada@example.com", "analytical", Client{})
		_, d, _ := s.SignIn(ctx, "ada@example.com", "analytical", Client{})
		pa, _, _ := s.Authenticate(ctx, a)
		if err := s.SignOut(ctx, pa, false); err != nil {
			t.Fatal(err)
		}
		if p, _, _ := s.Authenticate(ctx, a); p != nil {
			t.Fatal("local sign-out left its session alive")
		}
		pb, _, _ := s.Authenticate(ctx, b)
		if pb == nil {
			t.Fatal("local sign-out ended another session")
		}
		if err := s.SignOut(ctx, pb, true); err != nil {
			t.Fatal(err)
		}
		for _, tok := range []string{b, d} {
			if p, _, _ := s.Authenticate(ctx, tok); p != nil {
				t.Fatal("global sign-out left a session alive")
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM auth_sessions WHERE user_id = $1`, u.ID); n != 0 {
			t.Fatalf("%d sessions left after global sign-out", n)
		}
	})
}

func TestConfirmationLinkSingleUseAndExpiry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, Config{}, c)
		u, session := signUp(t, s, "Ada", "ada@example.com", "analytical")
		_, text := lastMail(t, db, "ada@example.com")
		token := linkToken(t, text, "https://ruv.example/auth/confirm?token=")
		if err := s.ConfirmEmail(ctx, "nonsense"); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("unknown token: %v", err)
		}
		adaCtx := signedIn(t, s, session)
		if err := s.ConfirmEmail(adaCtx, token); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.User(ctx, u.ID); !got.EmailConfirmed {
			t.Fatal("address not confirmed")
		}
		if p, _, _ := s.Authenticate(ctx, session); !p.EmailConfirmed {
			t.Fatal("the principal must see the confirmation")
		}
		if err := s.ConfirmEmail(adaCtx, token); !errors.Is(err, ErrTokenUsed) {
			t.Fatalf("second use: %v, want ErrTokenUsed", err)
		}

		// A second account's link expires after 24 hours.
		v, graceSession := signUp(t, s, "Grace", "grace@example.com", "compilers")
		_, text = lastMail(t, db, "grace@example.com")
		old := linkToken(t, text, "/auth/confirm?token=")
		c.Advance(ConfirmTTL + time.Second)
		graceCtx := signedIn(t, s, graceSession)
		if err := s.ConfirmEmail(graceCtx, old); !errors.Is(err, ErrTokenExpired) {
			t.Fatalf("expired link: %v, want ErrTokenExpired", err)
		}
		// Resending makes a new link that works; a confirmed account gets none.
		sent, err := s.ResendConfirmation(ctx, v.ID)
		if err != nil || !sent {
			t.Fatalf("resend: %v %v", sent, err)
		}
		// The sign-up mail and the resent one may share a millisecond, so
		// the new link is the one that is not the old.
		fresh := ""
		rows, err := db.Read.QueryContext(ctx, `SELECT text_body FROM mail_outbox WHERE to_addr = 'grace@example.com'`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var body string
			_ = rows.Scan(&body)
			if tok := linkToken(t, body, "/auth/confirm?token="); tok != old {
				fresh = tok
			}
		}
		_ = rows.Close()
		if err := s.ConfirmEmail(graceCtx, fresh); err != nil {
			t.Fatalf("resent link: %v", err)
		}
		before := mailCount(t, db, "grace@example.com")
		if sent, err := s.ResendConfirmation(ctx, v.ID); err != nil || sent {
			t.Fatalf("resend after confirming: %v %v", sent, err)
		}
		if mailCount(t, db, "grace@example.com") != before {
			t.Fatal("a confirmed address must not get another link")
		}
	})
}

func TestPasswordReset(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, Config{}, c)
		u, first := signUp(t, s, "Ada", "ada@example.com", "analytical")
		_, second, _ := s.SignIn(ctx, "ada@example.com", "analytical", Client{})

		if err := s.RequestPasswordReset(ctx, "nobody@example.com"); err != nil {
			t.Fatal(err)
		}
		if n := mailCount(t, db, "nobody@example.com"); n != 0 {
			t.Fatal("an unknown address must get no mail")
		}
		if err := s.RequestPasswordReset(ctx, " ADA@example.com"); err != nil {
			t.Fatal(err)
		}
		subject, text := lastMail(t, db, "ada@example.com")
		if subject != "Reset your password" {
			t.Fatalf("subject %q", subject)
		}
		token := linkToken(t, text, "https://ruv.example/auth?reset=true&token=")

		if _, _, err := s.ResetPassword(ctx, token, "short", Client{}); err == nil {
			t.Fatal("a short new password must be refused")
		}
		if _, _, err := s.ResetPassword(ctx, "made-up", "new password", Client{}); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("made-up token: %v", err)
		}
		got, third, err := s.ResetPassword(ctx, token, "new password", Client{})
		if err != nil || got.ID != u.ID {
			t.Fatalf("reset: %v %v", got, err)
		}
		if !got.EmailConfirmed {
			t.Fatal("a used reset link proves the mailbox; the address must count as confirmed")
		}
		for _, old := range []string{first, second} {
			if p, _, _ := s.Authenticate(ctx, old); p != nil {
				t.Fatal("reset must end every other session")
			}
		}
		if p, _, _ := s.Authenticate(ctx, third); p == nil {
			t.Fatal("the session the reset started must work")
		}
		if _, _, err := s.SignIn(ctx, "ada@example.com", "analytical", Client{}); !errors.Is(err, ErrInvalidCredentials) {
			t.Fatalf("old password: %v", err)
		}
		if _, _, err := s.SignIn(ctx, "ada@example.com", "new password", Client{}); err != nil {
			t.Fatalf("new password: %v", err)
		}
		if _, _, err := s.ResetPassword(ctx, token, "another password", Client{}); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("second use: %v", err)
		}
		if subject, _ := lastMail(t, db, "ada@example.com"); subject != "Your password was changed" {
			t.Fatalf("no change notice, last mail %q", subject)
		}

		// Two links: using one retires the other; and a link dies after an hour.
		_ = s.RequestPasswordReset(ctx, "ada@example.com")
		text = lastMailAbout(t, db, "ada@example.com", "Reset your password")
		a := linkToken(t, text, "/auth?reset=true&token=")
		_ = s.RequestPasswordReset(ctx, "ada@example.com")
		text = lastMailAbout(t, db, "ada@example.com", "Reset your password")
		b := linkToken(t, text, "/auth?reset=true&token=")
		if _, _, err := s.ResetPassword(ctx, b, "password three", Client{}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ResetPassword(ctx, a, "password four", Client{}); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("older link after a reset: %v", err)
		}
		_ = s.RequestPasswordReset(ctx, "ada@example.com")
		text = lastMailAbout(t, db, "ada@example.com", "Reset your password")
		late := linkToken(t, text, "/auth?reset=true&token=")
		c.Advance(ResetTTL + time.Second)
		if _, _, err := s.ResetPassword(ctx, late, "password five", Client{}); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("expired link: %v", err)
		}
	})
}

func TestResetRequestTakesTheSameTimeEitherWay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db, Config{BaseURL: "https://ruv.example"}, WithParams(cheap), WithResetFloor(200*time.Millisecond))
		if _, _, err := s.SignUp(ctx, SignUpInput{"Ada", "ada@example.com", "analytical"}, Client{}); err != nil {
			t.Fatal(err)
		}
		for _, email := range []string{"ada@example.com", "nobody@example.com"} {
			start := time.Now()
			if err := s.RequestPasswordReset(ctx, email); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 200*time.Millisecond || d > 600*time.Millisecond {
				t.Errorf("%s took %v; want the 200ms floor", email, d)
			}
		}
	})
}

func TestAdminRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, Config{AdminEmails: []string{"Owner@Example.com"}, AdminDomain: "ruv.example"}, c)
		sessions := map[string]string{}
		confirm := func(email string) {
			t.Helper()
			_, text := lastMail(t, db, email)
			if err := s.ConfirmEmail(signedIn(t, s, sessions[email]), linkToken(t, text, "/auth/confirm?token=")); err != nil {
				t.Fatal(err)
			}
		}
		isAdmin := func(token string) bool {
			t.Helper()
			p, _, err := s.Authenticate(ctx, token)
			if err != nil || p == nil {
				t.Fatalf("authenticate: %v", err)
			}
			return p.Admin
		}
		owner, ownerTok := signUp(t, s, "Owner", "owner@example.com", "password1")
		_, staffTok := signUp(t, s, "Staff", "staff@RUV.example", "password1") // kept as staff@ruv.example
		_, evilTok := signUp(t, s, "Evil", "evil@notruv.example", "password1")
		_, memberTok := signUp(t, s, "Member", "member@example.com", "password1")
		sessions["owner@example.com"], sessions["staff@ruv.example"] = ownerTok, staffTok
		sessions["evil@notruv.example"], sessions["member@example.com"] = evilTok, memberTok
		if owner.IsAdmin || isAdmin(ownerTok) || isAdmin(staffTok) {
			t.Fatal("an unconfirmed address must never be an admin, listed or on the admin domain")
		}
		confirm("owner@example.com")
		confirm("staff@ruv.example")
		confirm("evil@notruv.example")
		confirm("member@example.com")
		if !isAdmin(ownerTok) || !isAdmin(staffTok) {
			t.Fatal("confirmed listed address and confirmed admin-domain address must be admins")
		}
		if got, _ := s.User(ctx, owner.ID); !got.IsAdmin {
			t.Fatal("the user object must say is_admin")
		}
		if isAdmin(evilTok) || isAdmin(memberTok) {
			t.Fatal("a look-alike domain or a plain member must not be an admin")
		}
		if added, err := s.GrantAdmin(ctx, " MEMBER@example.com"); err != nil || !added {
			t.Fatalf("grant: %v %v", added, err)
		}
		if added, _ := s.GrantAdmin(ctx, "member@example.com"); added {
			t.Fatal("a second grant must report nothing new")
		}
		if !isAdmin(memberTok) {
			t.Fatal("an operator grant must make a confirmed address an admin")
		}
		if _, err := s.GrantAdmin(ctx, "nobody@example.com"); !errors.Is(err, ErrNoSuchUser) {
			t.Fatalf("grant to an unknown address: %v", err)
		}
		list, err := s.ListAdmins(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, e := range list {
			lines = append(lines, e.Email+":"+strings.Join(e.Sources, "+"))
		}
		want := "member@example.com:operator grant owner@example.com:TRIBE_ADMIN_EMAILS staff@ruv.example:TRIBE_ADMIN_DOMAIN"
		if strings.Join(lines, " ") != want {
			t.Fatalf("admins %q, want %q", strings.Join(lines, " "), want)
		}
		if removed, err := s.RevokeAdmin(ctx, "member@example.com"); err != nil || !removed {
			t.Fatalf("revoke: %v %v", removed, err)
		}
		if isAdmin(memberTok) {
			t.Fatal("a revoked grant must end admin rights on the next request")
		}

		// A granted but unconfirmed address is no admin either.
		_, newTok := signUp(t, s, "New", "new@example.com", "password1")
		if _, err := s.GrantAdmin(ctx, "new@example.com"); err != nil {
			t.Fatal(err)
		}
		if isAdmin(newTok) {
			t.Fatal("an operator grant needs a confirmed address too")
		}
	})
}
