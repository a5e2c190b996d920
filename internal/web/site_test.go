package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tribe/internal/clock"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/services"
	"tribe/internal/store"
)

// testSite is the one site builder of the HTTP tests: the complete handler
// from newServer over a real database, served on a loopback port, with the
// server behind it (to publish live updates) and direct database access for
// fixtures.
type testSite struct {
	t   testing.TB
	srv *httptest.Server
	db  *store.DB
	cfg *config.Config
	s   *server
	h   http.Handler
}

// siteOption adjusts the handler options before the site is built.
type siteOption func(*Options)

// withLog sends the site's log to w.
func withLog(w io.Writer) siteOption {
	return func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(w, nil)) }
}

// withHeartbeat shortens the live-update heartbeat.
func withHeartbeat(d time.Duration) siteOption { return func(o *Options) { o.heartbeat = d } }

// withClock gives the services (and the handlers that read the time
// through them) the test's clock.
func withClock(c clock.Clock) siteOption { return func(o *Options) { o.clock = c } }

// withOptions applies any other change to the handler options.
func withOptions(f func(*Options)) siteOption { return f }

// newTestSite serves the site over db configured by env (the environment
// variables of config.Load; TRIBE_DATA_DIR defaults to a temporary folder).
func newTestSite(t testing.TB, db *store.DB, env map[string]string, opts ...siteOption) *testSite {
	t.Helper()
	vars := map[string]string{"TRIBE_DATA_DIR": t.TempDir()}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	s, h, err := newServer(testOptions(t, cfg, db, opts...))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testSite{t: t, srv: srv, db: db, cfg: cfg, s: s, h: h}
}

// testOptions are the handler options serve passes, over db configured by
// cfg: the content loaded from cfg.ContentDir and the services from
// services.New, the constructor serve calls (after opts, so a logger given
// with withLog is theirs too). db may be nil for handlers that never reach
// the database.
func testOptions(t testing.TB, cfg *config.Config, db *store.DB, opts ...siteOption) Options {
	t.Helper()
	o := Options{Config: cfg, DB: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), App: testApp(t), Version: "test"}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Content == nil {
		site, err := content.Load(cfg.ContentDir)
		if err != nil {
			t.Fatal(err)
		}
		o.Content = site
	}
	var svcOpts []services.Option
	if o.clock != nil {
		svcOpts = append(svcOpts, services.WithClock(o.clock))
	}
	o.Services = services.New(cfg, db, o.Content, o.Logger, svcOpts...)
	t.Cleanup(o.Services.Close)
	return o
}

// testUser is an account made by testSite.user, signed in by a session row.
type testUser struct {
	id        string
	sessionID string
	token     string // the tribe_session cookie value; "" for anonymous
}

// userOption adjusts a fixture account.
type userOption int

// unconfirmed leaves the account's e-mail address unproven.
const unconfirmed userOption = 1

// user is the one user fixture: an account with a profile and a browser
// session, its address confirmed unless unconfirmed is given.
func (m *testSite) user(email string, opts ...userOption) testUser {
	m.t.Helper()
	ctx := context.Background()
	u := testUser{id: store.NewID(), sessionID: store.NewID()}
	var raw [32]byte
	_, _ = rand.Read(raw[:])
	u.token = hex.EncodeToString(raw[:])
	sum := sha256.Sum256([]byte(u.token))
	var confirmedAt any = store.Now()
	for _, o := range opts {
		if o == unconfirmed {
			confirmedAt = nil
		}
	}
	err := m.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $3, 'x', $4)`,
			u.id, email, strings.ToLower(email), confirmedAt); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`,
			u.id, email, strings.Split(email, "@")[0]); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO auth_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
			u.sessionID, u.id, hex.EncodeToString(sum[:]), store.At(time.Now().Add(24*time.Hour)))
		return err
	})
	if err != nil {
		m.t.Fatalf("create user %s: %v", email, err)
	}
	return u
}
