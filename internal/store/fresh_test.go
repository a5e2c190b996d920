package store

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite fresh/sqlite.sql from the migrations")

// TestFreshSchema: the snapshot a fresh SQLite database is built from is the
// migrations' own end state. A database built from it and one built by the
// migrations one by one hold the same schema, the same rows and the same
// recorded versions; the snapshot names the migrations' hash, so a new
// migration makes this test fail until the snapshot is made again (-update).
// A database that has any table gets the migrations, never the snapshot.
func TestFreshSchema(t *testing.T) {
	ctx := context.Background()
	migs, err := Migrations(SQLite)
	if err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, snapshot bool) *DB {
		t.Helper()
		db, err := Open(ctx, "", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		db.noSnapshot = !snapshot
		if _, err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		return db
	}
	stepwise := open(t, false)
	want, err := dumpSQLite(ctx, stepwise.Write)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		body := freshHeader + migrationsHash(migs) + "\n" + want
		if err := os.WriteFile(filepath.Join("fresh", "sqlite.sql"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("fresh/sqlite.sql written: build again to embed it")
	}
	if freshSnapshot(migs) == "" {
		t.Fatal("fresh/sqlite.sql is not made from the current migrations: run go test ./internal/store -run TestFreshSchema -update")
	}
	fresh := open(t, true)
	got, err := dumpSQLite(ctx, fresh.Write)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("the snapshot's database differs from the migrations':\n%s", firstDifference(got, want))
	}
	// Every object SQLite holds, shadow tables of full-text indexes included.
	objects := func(db *DB) string {
		rows, err := db.Write.QueryContext(ctx, "SELECT type || ' ' || name FROM sqlite_schema ORDER BY type, name")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = rows.Close() }()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return strings.Join(out, "\n")
	}
	if a, b := objects(fresh), objects(stepwise); a != b {
		t.Errorf("the snapshot's database holds other objects than the migrations':\n%s", firstDifference(a, b))
	}
	versions := func(db *DB) string {
		rows, err := db.Write.QueryContext(ctx, "SELECT version || ' ' || name FROM schema_migrations ORDER BY version")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = rows.Close() }()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return strings.Join(out, ", ")
	}
	if a, b := versions(fresh), versions(stepwise); a != b || a == "" {
		t.Errorf("recorded versions: snapshot %q, migrations %q", a, b)
	}
	// Migrating the snapshot's database again applies nothing.
	if again, err := fresh.Migrate(ctx); err != nil || len(again) != 0 {
		t.Errorf("second migrate: %v %v", again, err)
	}

	// A database with a table of its own is migrated step by step: the
	// snapshot would fail on it or hide what it holds.
	dir := t.TempDir()
	db, err := Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if _, err := db.Write.ExecContext(ctx, "CREATE TABLE users (id TEXT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(ctx); err == nil {
		t.Error("a database with its own users table was migrated as if fresh")
	}
}

// firstDifference shows the first line where two dumps part.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "snapshot:   " + al[i] + "\nmigrations: " + bl[i]
		}
	}
	return "one is longer than the other"
}
