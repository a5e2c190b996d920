package notify

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/levels"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
)

const base = "https://ruv.example"

// fixture is one site's database with the services of an instance over it.
type fixture struct {
	t     *testing.T
	db    *store.DB
	clock *clocktest.Clock
	svc   *Service
}

func newFixture(t *testing.T, db *store.DB, now time.Time) *fixture {
	c := clocktest.At(now)
	return &fixture{t: t, db: db, clock: c, svc: instance(db, c)}
}

// instance is the notify service of one server instance over db.
func instance(db *store.DB, c *clocktest.Clock) *Service {
	return New(db, levels.New(db, levels.WithClock(c.Now)), base, WithClock(c.Now))
}

func (f *fixture) exec(q string, args ...any) {
	f.t.Helper()
	if _, err := f.db.Write.ExecContext(context.Background(), q, args...); err != nil {
		f.t.Fatalf("%s: %v", q, err)
	}
}

// user adds a confirmed account with a profile; status "" leaves it without
// a subscription, otherwise it is the subscription's status.
func (f *fixture) user(name, status string) string {
	f.t.Helper()
	id := store.NewID()
	email := name + "@example.com"
	ctx := context.Background()
	err := f.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at, created_at)
			VALUES ($1, $2, $2, 'x', $3, $3)`, id, email, store.At(f.clock.Now().Add(-60*24*time.Hour))); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, strings.ToUpper(name[:1])+name[1:]); err != nil {
			return err
		}
		if status == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO subscriptions (user_id, status, created_at) VALUES ($1, $2, $3)`,
			id, status, store.At(f.clock.Now().Add(-60*24*time.Hour)))
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// seen records the member's last visit at t.
func (f *fixture) seen(userID string, t time.Time) {
	f.t.Helper()
	f.exec(`INSERT INTO member_activity (user_id, last_seen_at) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET last_seen_at = excluded.last_seen_at`, userID, store.At(t))
}

func (f *fixture) session(title, date, clock, zone string) *community.Session {
	f.t.Helper()
	s, err := community.CreateSession(context.Background(), f.db, "", community.SessionInput{
		Title: title, Date: date, Time: clock, Duration: "1 hour", Timezone: zone, Status: "scheduled",
		JoinURL: "https://meet.example/secret-room",
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// queued lists the outbox messages whose key starts with prefix, as
// "recipient | subject".
func (f *fixture) queued(prefix string) []string {
	f.t.Helper()
	rows, err := f.db.Read.QueryContext(context.Background(), `SELECT to_addr, subject FROM mail_outbox
		WHERE idempotency_key LIKE $1 ORDER BY to_addr, subject`, prefix+"%")
	if err != nil {
		f.t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var to, subject string
		if err := rows.Scan(&to, &subject); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, to+" | "+subject)
	}
	return out
}

// deliver sends every queued message to a real SMTP server and returns what
// it received.
func (f *fixture) deliver(srv *mailtest.Server) []mailtest.Received {
	f.t.Helper()
	sender, err := mail.NewSMTPSender(srv.URL(), "hello@example.com", mail.WithTimeout(5*time.Second))
	if err != nil {
		f.t.Fatal(err)
	}
	w := mail.NewWorker(f.db, sender, slog.New(slog.NewTextHandler(io.Discard, nil)), mail.WorkerOptions{})
	if _, err := w.Drain(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	return srv.Messages()
}

func unescape(t *testing.T, s string) string {
	t.Helper()
	v, err := url.QueryUnescape(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// header reads the header of a delivered message, folded lines joined.
func header(t *testing.T, raw []byte) netmail.Header {
	t.Helper()
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return m.Header
}

// atOnce runs step on every instance at the same moment, as the sweeps of
// two servers on one database would.
func atOnce(t *testing.T, svcs []*Service, step func(*Service) error) {
	t.Helper()
	var wg sync.WaitGroup
	for _, s := range svcs {
		wg.Go(func() {
			if err := step(s); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
