package community

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/store"
)

func addUser(t testing.TB, db *store.DB, email string) string {
	t.Helper()
	id := store.NewID()
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'x')`,
			id, email, strings.ToLower(email)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`,
			id, email, strings.Split(email, "@")[0])
		return err
	})
	if err != nil {
		t.Fatalf("add user %s: %v", email, err)
	}
	return id
}

func count(t testing.TB, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

func wantInvalid(t *testing.T, err error, field, message string) {
	t.Helper()
	var v *errs.Error
	if !errors.As(err, &v) || v.Code != errs.Invalid || v.Field != field || v.Message != message {
		t.Fatalf("error %v, want %s: %q", err, field, message)
	}
}
