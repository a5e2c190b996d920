// Command webhooks measures billing on both engines: signed Stripe webhook
// events verified and applied per second (one at a time, and from several
// deliveries at once, as Stripe sends them), and the latency of creating a
// checkout against stripe-mock. Run it with bench/webhooks.sh.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tribe/internal/billing"
	"tribe/internal/billing/billingtest"
	"tribe/internal/config"
	"tribe/internal/store"
)

const (
	secret = "whsec_bench"
	price  = "price_bench"
)

func main() {
	events := flag.Int("events", 3000, "webhook events per run")
	members := flag.Int("members", 300, "members the events are spread over")
	workers := flag.Int("workers", 4, "concurrent deliveries in the parallel run")
	checkouts := flag.Int("checkouts", 100, "checkouts created against stripe-mock")
	engines := flag.String("engines", "sqlite,postgres", "engines to measure")
	pg := flag.String("pg", envOr("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"), "PostgreSQL server")
	flag.Parse()
	ctx := context.Background()
	mock, err := billingtest.StartStripeMock(ctx, os.Getenv("CI") == "true")
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhooks bench:", err)
		os.Exit(1)
	}
	defer mock.Close()
	fmt.Printf("# %s, %d events over %d members, %d workers in parallel, %d checkouts against stripe-mock %s\n",
		time.Now().UTC().Format("2006-01-02T15:04Z"), *events, *members, *workers, *checkouts, billingtest.StripeMockVersion)
	fmt.Printf("%-9s %-24s %10s\n", "engine", "measure", "result")
	for _, engine := range strings.Split(*engines, ",") {
		if err := run(ctx, engine, *pg, mock.URL, *events, *members, *workers, *checkouts); err != nil {
			fmt.Fprintf(os.Stderr, "webhooks bench on %s: %v\n", engine, err)
			os.Exit(1)
		}
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(ctx context.Context, engine, pg, stripeURL string, nEvents, nMembers, workers, nCheckouts int) error {
	db, cleanup, err := open(ctx, engine, pg)
	if err != nil {
		return err
	}
	defer cleanup()
	cfg := &config.Config{
		BaseURL: "http://localhost:8080", Capacity: 100000,
		StripeSecretKey: "sk_test_bench", StripePriceID: price, StripeWebhookSecret: secret, StripeAPIBase: stripeURL,
	}
	svc := billing.New(db, cfg, billing.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	users, err := addMembers(ctx, db, "w", nMembers, true)
	if err != nil {
		return err
	}
	// Two rounds of events over fresh subscriptions: one delivered one at a
	// time, one by several deliveries at once.
	for round, par := range []int{1, workers} {
		bodies := makeEvents(users, nEvents, round)
		rate, err := deliver(ctx, svc, bodies, par)
		if err != nil {
			return err
		}
		var recorded int
		if err := db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_events`).Scan(&recorded); err != nil {
			return err
		}
		if recorded != (round+1)*nEvents {
			return fmt.Errorf("%d events recorded after round %d, want %d", recorded, round+1, (round+1)*nEvents)
		}
		fmt.Printf("%-9s %-24s %10s\n", engine, fmt.Sprintf("webhooks/s, %d at once", par), fmt.Sprintf("%.0f", rate))
	}
	buyers, err := addMembers(ctx, db, "c", nCheckouts, false)
	if err != nil {
		return err
	}
	var lat []time.Duration
	for i, id := range buyers {
		t0 := time.Now()
		// Each buyer from their own address: the hold rule allows a few
		// open checkouts per client address.
		if _, err := svc.Checkout(ctx, id, fmt.Sprintf("c%d@example.com", i), fmt.Sprintf("client-%d", i), "members"); err != nil {
			return fmt.Errorf("checkout: %w", err)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	q := func(p float64) string { return lat[int(p*float64(len(lat)-1))].Round(10 * time.Microsecond).String() }
	fmt.Printf("%-9s %-24s %10s\n", engine, "checkout p50", q(0.5))
	fmt.Printf("%-9s %-24s %10s\n", engine, "checkout p95", q(0.95))
	fmt.Printf("%-9s %-24s %10s\n", engine, "checkout max", q(1))
	return nil
}

// makeEvents spreads n subscription events over the members: a created
// event (access starts, a welcome mail is queued) and then updates, each
// newer than the last for its subscription.
func makeEvents(users []string, n, round int) [][]byte {
	base := time.Now().Unix() - 3600
	out := make([][]byte, 0, n)
	statuses := []string{"active", "past_due", "active", "active"}
	for i := range n {
		u := i % len(users)
		step := i / len(users)
		typ := "customer.subscription.updated"
		if step == 0 {
			typ = "customer.subscription.created"
		}
		sub := billingtest.Sub{
			ID: fmt.Sprintf("sub_r%d_%d", round, u), Customer: "cus_" + users[u], Status: statuses[step%len(statuses)],
			Price: price, UserID: users[u], PeriodEnd: base + 30*24*3600, CancelAtPeriodEnd: step%5 == 4,
			Created: base,
		}
		out = append(out, billingtest.Event(fmt.Sprintf("evt_r%d_%d", round, i), typ, base+int64(round*100000+step), sub.Object()))
	}
	return out
}

// deliver signs and hands every body to the webhook handler with par
// deliveries at once, and returns events per second.
func deliver(ctx context.Context, svc *billing.Service, bodies [][]byte, par int) (float64, error) {
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		mu      sync.Mutex
		errSeen error
	)
	start := time.Now()
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(bodies) {
					return
				}
				header := billingtest.Sign(bodies[i], secret, time.Now())
				if _, err := svc.HandleWebhook(ctx, bodies[i], header); err != nil {
					mu.Lock()
					errSeen = errors.Join(errSeen, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if errSeen != nil {
		return 0, errSeen
	}
	return float64(len(bodies)) / time.Since(start).Seconds(), nil
}

// addMembers creates accounts (and, with customers, their Stripe customer
// links) directly in the database.
func addMembers(ctx context.Context, db *store.DB, prefix string, n int, customers bool) ([]string, error) {
	ids := make([]string, n)
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		for i := range ids {
			ids[i] = store.NewID()
			email := fmt.Sprintf("%s%d@example.com", prefix, i)
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $2, 'x', $3)`, ids[i], email, store.Now()); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, 'Bench Member')`, ids[i], email); err != nil {
				return err
			}
			if customers {
				if _, err := tx.ExecContext(ctx, `INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2)`, ids[i], "cus_"+ids[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("add members: %w", err)
	}
	return ids, nil
}

// open makes a fresh, migrated database: SQLite in a temporary directory,
// or PostgreSQL in a schema of its own that is dropped afterwards.
func open(ctx context.Context, engine, pg string) (*store.DB, func(), error) {
	switch engine {
	case "sqlite":
		dir, err := os.MkdirTemp("", "tribe-bench-")
		if err != nil {
			return nil, nil, err
		}
		db, err := store.Open(ctx, "", dir)
		if err != nil {
			return nil, nil, err
		}
		if _, err := db.Migrate(ctx); err != nil {
			return nil, nil, err
		}
		return db, func() { _ = db.Close(); _ = os.RemoveAll(filepath.Clean(dir)) }, nil
	case "postgres":
		admin, err := sql.Open("pgx", pg)
		if err != nil {
			return nil, nil, err
		}
		schema := "bench_" + strings.ReplaceAll(store.NewID(), "-", "")[:16]
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			_ = admin.Close()
			return nil, nil, fmt.Errorf("PostgreSQL at %s: %w", pg, err)
		}
		u, err := url.Parse(pg)
		if err != nil {
			return nil, nil, err
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		db, err := store.Open(ctx, u.String(), "")
		if err == nil {
			_, err = db.Migrate(ctx)
		}
		drop := func() {
			if db != nil {
				_ = db.Close()
			}
			_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			_ = admin.Close()
		}
		if err != nil {
			drop()
			return nil, nil, err
		}
		return db, drop, nil
	}
	return nil, nil, fmt.Errorf("unknown engine %q; use sqlite or postgres", engine)
}
