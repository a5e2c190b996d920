package store_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestReadThroughSeesEveryWriter keeps a read of live_sessions in one
// process's DB and changes the table through a second DB on the same
// database (another process or instance) with plain SQL: each insert,
// update and delete is seen on the next read, and no read happens while
// nothing changed.
func TestReadThroughSeesEveryWriter(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			ctx := context.Background()
			dbURL, dir := e.New(t)
			db := storetest.Open(t, dbURL, dir)
			other := storetest.Open(t, dbURL, dir)
			var loads atomic.Int32
			titles := func() string {
				t.Helper()
				got, err := store.ReadThrough(ctx, db, "live_sessions", func(ctx context.Context) (string, error) {
					loads.Add(1)
					rows, err := db.Read.QueryContext(ctx, `SELECT title FROM live_sessions ORDER BY title`)
					if err != nil {
						return "", err
					}
					defer func() { _ = rows.Close() }()
					var out []string
					for rows.Next() {
						var s string
						if err := rows.Scan(&s); err != nil {
							return "", err
						}
						out = append(out, s)
					}
					return strings.Join(out, ","), rows.Err()
				})
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			exec := func(q string) {
				t.Helper()
				if _, err := other.Write.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			steps := []struct {
				change, want string
			}{
				{"", ""},
				{`INSERT INTO live_sessions (id, title, session_date, session_time, duration, timezone) VALUES ('a', 'Alpha', '2099-01-01', '10:00', '1 hour', 'UTC')`, "Alpha"},
				{`INSERT INTO live_sessions (id, title, session_date, session_time, duration, timezone) VALUES ('b', 'Beta', '2099-01-02', '10:00', '1 hour', 'UTC')`, "Alpha,Beta"},
				{`UPDATE live_sessions SET title = 'Gamma' WHERE id = 'a'`, "Beta,Gamma"},
				{`DELETE FROM live_sessions WHERE id = 'b'`, "Gamma"},
			}
			for i, s := range steps {
				if s.change != "" {
					exec(s.change)
				}
				if got := titles(); got != s.want {
					t.Fatalf("after %q: read %q, want %q", s.change, got, s.want)
				}
				if got := titles(); got != s.want {
					t.Fatalf("second read after %q: %q, want %q", s.change, got, s.want)
				}
				if n := loads.Load(); n != int32(i+1) {
					t.Fatalf("after step %d the table was read %d times, want %d (once per change)", i, n, i+1)
				}
			}
		})
	}
}

func TestReadThroughRefusesUncountedTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, err := store.ReadThrough(context.Background(), db, "users", func(context.Context) (int, error) { return 1, nil })
		if err == nil || !strings.Contains(err.Error(), "not counted") {
			t.Fatalf("reading through an uncounted table: %v", err)
		}
	})
}
