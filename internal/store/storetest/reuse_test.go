package storetest

import (
	"context"
	"testing"

	"tribe/internal/store"
)

// A schema handed out again holds nothing the last test wrote, still holds
// what the migrations insert, and one whose tables a test dropped is not
// handed out again.
func TestReusedSchemasStartEmpty(t *testing.T) {
	ctx := context.Background()
	count := func(t *testing.T, db *store.DB, query string) int {
		t.Helper()
		var n int
		if err := db.Write.QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return n
	}
	migrations := -1
	for round := range 3 {
		Each(t, func(t *testing.T, db *store.DB) {
			if n := count(t, db, `SELECT count(*) FROM users`); n != 0 {
				t.Fatalf("round %d: %d users left by an earlier test", round, n)
			}
			applied := count(t, db, `SELECT count(*) FROM schema_migrations`)
			if applied == 0 {
				t.Fatalf("round %d: the migrations' own rows are gone", round)
			}
			if db.Dialect == store.Postgres {
				if migrations >= 0 && applied != migrations {
					t.Fatalf("round %d: %d migrations recorded, %d before", round, applied, migrations)
				}
				migrations = applied
			}
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ('u1', 'a@b.example', 'a@b.example', 'x')`); err != nil {
				t.Fatalf("insert: %v", err)
			}
			if round == 1 {
				if _, err := db.Write.ExecContext(ctx, `DROP TABLE user_roles`); err != nil {
					t.Fatalf("drop: %v", err)
				}
			}
		})
	}
}
