package library

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/levels"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// fixture is a library over a database and a file store, with members
// whose Tribe Level the test sets.
type fixture struct {
	t      *testing.T
	db     *store.DB
	files  storage.Store
	clock  *clocktest.Clock
	svc    *Service
	levels map[string]string // user id -> level name
	index  *fakeIndex
}

func newFixture(t *testing.T, db *store.DB, files storage.Store) *fixture {
	f := &fixture{t: t, db: db, files: files, clock: clocktest.New(), levels: map[string]string{}, index: &fakeIndex{chunks: map[string][]Passage{}}}
	f.svc = New(db, Options{Files: files, Clock: f.clock.Now, Index: f.index,
		LevelOf: func(_ context.Context, id string) (string, error) {
			if l, ok := f.levels[id]; ok {
				return l, nil
			}
			return levels.Apprentice, nil
		}})
	return f
}

// fakeIndex keeps what the library hands the knowledge base.
type fakeIndex struct{ chunks map[string][]Passage }

func (x *fakeIndex) IndexReplay(_ context.Context, id string, p []Passage) error {
	x.chunks[id] = p
	return nil
}

func (x *fakeIndex) HasReplay(_ context.Context, id string) (bool, error) {
	_, ok := x.chunks[id]
	return ok, nil
}

func (x *fakeIndex) RemoveReplay(_ context.Context, id string) error {
	delete(x.chunks, id)
	return nil
}

// user adds an account and returns its id.
func (f *fixture) user(name string) string {
	f.t.Helper()
	id := store.NewID()
	email := strings.ToLower(name) + "@example.com"
	ctx := context.Background()
	err := f.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, id, email); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, name)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) member(name, level string) access.Viewer {
	id := f.user(name)
	f.levels[id] = level
	return access.Viewer{UserID: id, Member: true}
}

func (f *fixture) free(name string) access.Viewer { return access.Viewer{UserID: f.user(name)} }

func (f *fixture) admin(name string) access.Viewer {
	return access.Viewer{UserID: f.user(name), Admin: true}
}

// add creates an item as admin and fails the test on a refusal.
func (f *fixture) add(admin access.Viewer, in ItemInput) *ItemDetail {
	f.t.Helper()
	d, err := f.svc.Create(context.Background(), admin, in)
	if err != nil {
		f.t.Fatalf("create %+v: %v", in, err)
	}
	return d
}

func ptr[T any](v T) *T { return &v }

// published is an item input published an hour before the fixture's now.
func (f *fixture) published(kind, title string, minLevel int) ItemInput {
	at := f.clock.Now().Add(-time.Hour)
	in := ItemInput{Kind: ptr(kind), Title: ptr(title), DurationS: ptr(1000), MinLevel: ptr(minLevel), PublishedAt: &at}
	if kind == KindLink {
		in.URL = ptr("https://youtu.be/dQw4w9WgXcQ")
	}
	if kind == KindLesson {
		in.Body = ptr("# Lesson\n\nText.")
	}
	return in
}

// wantField fails unless err is an Invalid error about field.
func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var e *errs.Error
	if err == nil || !errs.Is(err, errs.Invalid) {
		t.Fatalf("want a 400 about %s, got %v", field, err)
	}
	if ok := asError(err, &e); !ok || e.Field != field {
		t.Fatalf("want a refusal naming %s, got %+v", field, e)
	}
}

func asError(err error, e **errs.Error) bool {
	x, ok := err.(*errs.Error)
	*e = x
	return ok
}
