package kb

import (
	"errors"

	"context"
	"io"
	"log/slog"
	"testing"
	"tribe/internal/errs"

	"tribe/internal/content"
	"tribe/internal/store"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newKB is a knowledge base over db with o (a quiet logger unless set).
func newKB(t testing.TB, db *store.DB, o Options) *Service {
	t.Helper()
	if o.Logger == nil {
		o.Logger = quietLogger()
	}
	return New(db, o)
}

// siteDocs are the seeded documents of the site's own content, capped at 50.
func siteDocs(t testing.TB) []SeedDoc {
	t.Helper()
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return FromContent(site, 50)
}

// rows counts the rows of a table.
func rows(t testing.TB, db *store.DB, table string) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// mustCreate adds a manual document.
func mustCreate(t testing.TB, s *Service, title, text string) Document {
	t.Helper()
	d, err := s.Create(context.Background(), Input{Title: title, Content: text})
	if err != nil {
		t.Fatalf("create %q: %v", title, err)
	}
	return d
}

// errorAs is errors.As for *errs.Error.
func errorAs(err error, target **errs.Error) bool { return errors.As(err, target) }
