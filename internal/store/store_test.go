package store_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestMigrationsMatchAcrossEngines(t *testing.T) {
	lite, err := store.Migrations(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := store.Migrations(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 || len(lite) != len(pg) {
		t.Fatalf("sqlite has %d migrations, postgres %d: keep them in step", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].Name != pg[i].Name {
			t.Errorf("migration %d: sqlite %q, postgres %q", i, lite[i].Name, pg[i].Name)
		}
	}
}

// tables every later capability relies on.
var wantTables = []string{
	"users", "user_roles", "profiles", "auth_sessions", "email_tokens", "waitlist", "mail_outbox",
	"subscriptions", "payment_events", "cohorts", "cohort_members", "live_sessions", "documents",
}

func TestSchemaAndMigrateTwice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, table := range wantTables {
			var n int
			if err := db.Read.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
				t.Errorf("table %s: %v", table, err)
			}
		}
		v, err := db.SchemaVersion(ctx)
		if err != nil || v < 1 {
			t.Fatalf("schema version = %d, %v", v, err)
		}
		again, err := db.Migrate(ctx)
		if err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		if len(again) != 0 {
			t.Fatalf("second migrate applied %v, want nothing", again)
		}
	})
}

func TestConcurrentMigrate(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dir := e.New(t)
			ctx := context.Background()
			// Separate pools stand for separate processes racing on one empty database.
			const runners = 4
			dbs := make([]*store.DB, runners)
			for i := range dbs {
				db, err := store.Open(ctx, dbURL, dir)
				if err != nil {
					t.Fatalf("open %d: %v", i, err)
				}
				t.Cleanup(func() { _ = db.Close() })
				dbs[i] = db
			}
			var wg sync.WaitGroup
			applied := make([][]string, runners)
			errs := make([]error, runners)
			for i, db := range dbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					applied[i], errs[i] = db.Migrate(ctx)
				}()
			}
			wg.Wait()
			total := 0
			for i := range dbs {
				if errs[i] != nil {
					t.Errorf("runner %d: %v", i, errs[i])
				}
				total += len(applied[i])
			}
			migs, _ := store.Migrations(dbs[0].Dialect)
			if total != len(migs) {
				t.Errorf("runners applied %d migrations in all, want each of the %d exactly once", total, len(migs))
			}
			var rows int
			if err := dbs[0].Read.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != len(migs) {
				t.Errorf("schema_migrations has %d rows, want %d", rows, len(migs))
			}
		})
	}
}

func addUser(t *testing.T, db *store.DB, email string) string {
	t.Helper()
	id := store.NewID()
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'x')`,
			id, email, strings.ToLower(email)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, 'Test User')`, id, email)
		return err
	})
	if err != nil {
		t.Fatalf("add user %s: %v", email, err)
	}
	return id
}

func addCohort(t *testing.T, db *store.DB, creator string) string {
	t.Helper()
	id := store.NewID()
	if _, err := db.Write.ExecContext(context.Background(),
		`INSERT INTO cohorts (id, name, created_by) VALUES ($1, 'Builders', $2)`, id, creator); err != nil {
		t.Fatalf("add cohort: %v", err)
	}
	return id
}

func count(t *testing.T, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestDatabaseRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		alice := addUser(t, db, "alice@example.com")
		bob := addUser(t, db, "bob@example.com")

		t.Run("email unique case-insensitively", func(t *testing.T) {
			_, err := db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, 'ALICE@example.com', 'alice@example.com', 'x')`,
				store.NewID())
			if err == nil {
				t.Fatal("second account with the same normalised address was accepted")
			}
			_, err = db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, 'Carol@example.com', 'Carol@example.com', 'x')`,
				store.NewID())
			if err == nil {
				t.Fatal("a non-normalised email_normalized was accepted")
			}
		})

		c1 := addCohort(t, db, alice)
		c2 := addCohort(t, db, bob)
		t.Run("one cohort per user", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), c1, alice); err != nil {
				t.Fatalf("first join: %v", err)
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), c2, alice); err == nil {
				t.Fatal("joined a second cohort")
			}
		})

		t.Run("cohort icon and urls checked", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohorts (id, name, icon) VALUES ($1, 'X', 'skull')`, store.NewID()); err == nil {
				t.Error("unknown icon accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohorts (id, name, github_url) VALUES ($1, 'X', 'javascript:alert(1)')`, store.NewID()); err == nil {
				t.Error("non-http URL accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohorts (id, name) VALUES ($1, '   ')`, store.NewID()); err == nil {
				t.Error("blank name accepted")
			}
			var icon string
			var max int
			if err := db.Read.QueryRowContext(ctx, `SELECT icon, max_members FROM cohorts WHERE id = $1`, c1).Scan(&icon, &max); err != nil {
				t.Fatal(err)
			}
			if icon != "users" || max != 5 {
				t.Errorf("defaults: icon %q max %d, want users 5", icon, max)
			}
		})

		t.Run("enumerations checked", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO subscriptions (user_id, status) VALUES ($1, 'free-forever')`, bob); err == nil {
				t.Error("unknown subscription status accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO live_sessions (id, title, session_date, session_time, duration, timezone, status)
				 VALUES ($1, 'Kickoff', '2026-12-01', '18:00', '2 hours', 'America/New_York', 'someday')`, store.NewID()); err == nil {
				t.Error("unknown session status accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO live_sessions (id, title, session_date, session_time, duration, timezone)
				 VALUES ($1, 'Kickoff', '1 Dec', '18:00', '2 hours', 'America/New_York')`, store.NewID()); err == nil {
				t.Error("malformed session date accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO email_tokens (id, user_id, purpose, token_hash, expires_at) VALUES ($1, $2, 'magic', 'h', $3)`,
				store.NewID(), bob, store.Now()); err == nil {
				t.Error("unknown token purpose accepted")
			}
		})

		t.Run("deleting a user cascades and nulls creator", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO auth_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, 'hash-a', $3)`,
				store.NewID(), alice, store.At(time.Now().Add(time.Hour))); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO subscriptions (user_id, status, cancel_at_period_end) VALUES ($1, 'active', $2)`, alice, true); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write.ExecContext(ctx, `DELETE FROM users WHERE id = $1`, alice); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`SELECT COUNT(*) FROM profiles WHERE id = $1`,
				`SELECT COUNT(*) FROM auth_sessions WHERE user_id = $1`,
				`SELECT COUNT(*) FROM cohort_members WHERE user_id = $1`,
				`SELECT COUNT(*) FROM subscriptions WHERE user_id = $1`,
			} {
				if n := count(t, db, q, alice); n != 0 {
					t.Errorf("%s: %d rows left after deleting the user", q, n)
				}
			}
			var creator sql.NullString
			if err := db.Read.QueryRowContext(ctx, `SELECT created_by FROM cohorts WHERE id = $1`, c1).Scan(&creator); err != nil {
				t.Fatalf("cohort gone with its creator: %v", err)
			}
			if creator.Valid {
				t.Errorf("created_by = %q, want NULL", creator.String)
			}
		})

		t.Run("deleting a cohort removes its members", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), c2, bob); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write.ExecContext(ctx, `DELETE FROM cohorts WHERE id = $1`, c2); err != nil {
				t.Fatal(err)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1`, c2); n != 0 {
				t.Errorf("%d members left in a deleted cohort", n)
			}
		})

		t.Run("orphan rows refused", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO cohort_members (id, cohort_id, user_id) VALUES ($1, $2, $3)`, store.NewID(), "no-such-cohort", bob); err == nil {
				t.Error("member of a missing cohort accepted")
			}
		})

		t.Run("json columns", func(t *testing.T) {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO documents (id, content, metadata) VALUES ($1, 'text', '[1]')`, store.NewID()); err == nil {
				t.Error("non-object metadata accepted")
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO documents (id, content, metadata) VALUES ($1, 'PACT means proactive', '{"title":"About","category":"manual"}')`,
				store.NewID()); err != nil {
				t.Errorf("valid document refused: %v", err)
			}
		})
	})
}

func TestTimesRoundTripInUTC(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		user := addUser(t, db, "tz@example.com")
		paris, _ := time.LoadLocation("Europe/Paris")
		// Two instants whose text forms would sort wrongly without a fixed width.
		early := time.Date(2026, 3, 29, 1, 30, 0, 500_000_000, paris)
		late := early.Add(10 * time.Millisecond)
		for i, at := range []time.Time{late, early} {
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO auth_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
				store.NewID(), user, "h"+string(rune('a'+i)), store.At(at)); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := db.Read.QueryContext(ctx, `SELECT expires_at FROM auth_sessions WHERE user_id = $1 ORDER BY expires_at`, user)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []store.Time
		for rows.Next() {
			var ts store.Time
			if err := rows.Scan(&ts); err != nil {
				t.Fatal(err)
			}
			got = append(got, ts)
		}
		if len(got) != 2 || !got[0].Equal(early) || !got[1].Equal(late) {
			t.Fatalf("got %v, want [%v %v] in order", got, early.UTC(), late.UTC())
		}
		if got[0].Location() != time.UTC {
			t.Errorf("location %v, want UTC", got[0].Location())
		}
		n := count(t, db, `SELECT COUNT(*) FROM auth_sessions WHERE expires_at > $1`, store.At(early))
		if n != 1 {
			t.Errorf("%d sessions later than the early instant, want 1", n)
		}
	})
}

func TestTxRollsBackOnError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		id := store.NewID()
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, 'half@example.com', 'half@example.com', 'x')`, id); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Tx error = %v, want boom", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users WHERE id = $1`, id); n != 0 {
			t.Fatal("a rolled-back insert was kept")
		}
	})
}

func TestDataSurvivesReopen(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dir := e.New(t)
			ctx := context.Background()
			db := storetest.Open(t, dbURL, dir)
			addUser(t, db, "kept@example.com")
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			again := storetest.Open(t, dbURL, dir)
			var email string
			if err := again.Read.QueryRowContext(ctx, `SELECT email FROM profiles`).Scan(&email); err != nil || email != "kept@example.com" {
				t.Fatalf("after reopen: %q, %v", email, err)
			}
		})
	}
}

func TestConcurrentWritersNeverSeeLocked(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const writers = 40
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- db.Tx(ctx, func(tx *sql.Tx) error {
					email := strings.Repeat("w", i+1) + "@example.com"
					_, err := tx.ExecContext(ctx,
						`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, store.NewID(), email)
					return err
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("concurrent write: %v", err)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users`); n != writers {
			t.Errorf("%d users, want %d", n, writers)
		}
	})
}

func TestOpenRejectsOtherURLs(t *testing.T) {
	_, err := store.Open(context.Background(), "mysql://root@localhost/db", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "postgres://") {
		t.Fatalf("err = %v, want a hint about postgres://", err)
	}
}

func TestNewIDIsUUIDv4(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := store.NewID()
		if len(id) != 36 || id[14] != '4' || !strings.Contains("89ab", string(id[19])) {
			t.Fatalf("%q is not a v4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}
