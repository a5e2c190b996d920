package forum

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"

	"tribe/internal/access"
	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// recorder is a Notifier that keeps what it was handed.
type recorder struct {
	mu      sync.Mutex
	notices []Notice
}

func (r *recorder) Notify(_ context.Context, n []Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, n...)
	return nil
}

// take returns and forgets what was recorded.
func (r *recorder) take() []Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.notices
	r.notices = nil
	return out
}

// fixture is a database with a service over it and named members.
type fixture struct {
	suggested []string // "name: note" of contributions put forward
	t         *testing.T
	db        *store.DB
	clock     *clocktest.Clock
	rec       *recorder
	svc       *Service
	names     map[string]string // id -> name
}

func newFixture(t *testing.T, db *store.DB) *fixture {
	f := &fixture{t: t, db: db, clock: clocktest.New(), rec: &recorder{}, names: map[string]string{}}
	f.svc = New(db, f.clock.Now, Options{Notifier: f.rec,
		LevelOf: func(context.Context, string) (string, error) { return "Explorer", nil },
		IsAdmin: func(_ context.Context, id string) (bool, error) { return strings.HasPrefix(f.names[id], "Owner"), nil },
		SuggestContribution: func(_ context.Context, id, note string) error {
			f.suggested = append(f.suggested, f.names[id]+": "+note)
			return nil
		},
	})
	return f
}

// user adds a confirmed account named name, listed in the directory.
func (f *fixture) user(name string) string {
	f.t.Helper()
	id := store.NewID()
	email := strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@example.com"
	ctx := context.Background()
	err := f.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $2, 'x', $3)`,
			id, email, store.At(f.clock.Now())); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name, in_directory) VALUES ($1, $2, $3, TRUE)`, id, email, name)
		return err
	})
	if err != nil {
		f.t.Fatalf("add user %s: %v", name, err)
	}
	f.names[id] = name
	return id
}

// member adds a subscriber and returns them as a viewer.
func (f *fixture) member(name string) access.Viewer {
	f.t.Helper()
	id := f.user(name)
	if _, err := f.db.Write.ExecContext(context.Background(),
		`INSERT INTO subscriptions (user_id, status, created_at) VALUES ($1, 'active', $2)`, id, store.At(f.clock.Now())); err != nil {
		f.t.Fatal(err)
	}
	return access.Viewer{UserID: id, Member: true}
}

func (f *fixture) free(name string) access.Viewer { return access.Viewer{UserID: f.user(name)} }

func (f *fixture) admin(name string) access.Viewer {
	return access.Viewer{UserID: f.user("Owner " + name), Admin: true}
}

func (f *fixture) post(v access.Viewer, category, title, body string) *ThreadDetail {
	f.t.Helper()
	d, err := f.svc.Create(context.Background(), v, ThreadInput{Category: category, Title: title, Body: body})
	if err != nil {
		f.t.Fatalf("post %q: %v", title, err)
	}
	return d
}

func (f *fixture) reply(v access.Viewer, thread, body string) *Reply {
	f.t.Helper()
	r, err := f.svc.AddReply(context.Background(), v, thread, ReplyInput{Body: body})
	if err != nil {
		f.t.Fatalf("reply %q: %v", body, err)
	}
	return r
}

func (f *fixture) count(q string, a ...any) int {
	f.t.Helper()
	var n int
	if err := f.db.Read.QueryRowContext(context.Background(), q, a...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", q, err)
	}
	return n
}

// told is the notices as "name:kind", in order.
func (f *fixture) told(n []Notice) []string {
	out := []string{}
	for _, x := range n {
		out = append(out, f.names[x.MemberID]+":"+x.Kind)
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != field {
		t.Fatalf("error %v, want invalid %s", err, field)
	}
}

func asErr(err error, target **errs.Error) bool { return errors.As(err, target) }

func accessOf(id string) access.Viewer { return access.Viewer{UserID: id, Member: true} }
