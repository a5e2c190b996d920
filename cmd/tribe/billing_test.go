package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestBillingReconcileCommand: a site row Stripe does not have (it was
// deleted there while the site was down) and one whose price the site does
// not know are reported with MRR on both sides and exit status 3; --apply
// fixes both and a second run agrees, exit 0.
func TestBillingReconcileCommand(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			fake := billingtest.NewFake(t)
			dbURL, dir, _ := adminCLI(t, e, map[string]string{
				"STRIPE_SECRET_KEY": "sk_test_cli", "STRIPE_PRICE_ID": "price_cli", "STRIPE_API_BASE": fake.URL, "STRIPE_WEBHOOK_SECRET": "whsec_cli",
			})
			tribe := func(args ...string) (int, string, string) {
				var out, errb bytes.Buffer
				code := run(args, &out, &errb)
				return code, out.String(), errb.String()
			}
			if code, _, errOut := tribe("billing", "reconcile", "--now"); code != 2 || !strings.Contains(errOut, "--apply") {
				t.Fatalf("unknown option: %d %q", code, errOut)
			}
			if code, out, errOut := tribe("billing", "reconcile"); code != 0 || !strings.Contains(out, "The site agrees with Stripe.") {
				t.Fatalf("empty site: %d %q %q", code, out, errOut)
			}
			db := storetest.Open(t, dbURL, dir)
			ctx := context.Background()
			user := func(email string) string {
				id := store.NewID()
				if _, err := db.Write.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $2, 'x')`, id, email); err != nil {
					t.Fatal(err)
				}
				return id
			}
			ada, bob := user("ada@example.com"), user("bob@example.com")
			for _, row := range []struct{ id, sub, customer string }{{ada, "sub_ada", "cus_ada"}, {bob, "sub_bob", "cus_bob"}} {
				if _, err := db.Write.ExecContext(ctx, `INSERT INTO subscriptions (user_id, status, stripe_subscription_id, stripe_customer_id) VALUES ($1, 'active', $2, $3)`,
					row.id, row.sub, row.customer); err != nil {
					t.Fatal(err)
				}
			}
			end := time.Now().Add(20 * 24 * time.Hour).Unix()
			fake.PutSubscription(billingtest.Sub{ID: "sub_ada", Customer: "cus_ada", Status: "active", Price: "price_cli",
				UserID: ada, PeriodEnd: end, Amount: 4900})

			code, out, errOut := tribe("billing", "reconcile")
			if code != exitDiffers || !strings.Contains(out, "MRR (USD): Stripe 49.00, the site 0.00, differs by 49.00.") ||
				!strings.Contains(out, "differs  ada@example.com") || !strings.Contains(out, "extra    bob@example.com") {
				t.Fatalf("reconcile: %d\n%s%s", code, out, errOut)
			}
			code, out, errOut = tribe("billing", "reconcile", "--apply")
			if code != 0 || !strings.Contains(out, "Fixed 2 differences") {
				t.Fatalf("reconcile --apply: %d\n%s%s", code, out, errOut)
			}
			code, out, _ = tribe("billing", "reconcile")
			if code != 0 || !strings.Contains(out, "MRR (USD): Stripe 49.00, the site 49.00.") || !strings.Contains(out, "agrees") {
				t.Fatalf("second run: %d\n%s", code, out)
			}
			var status string
			if err := db.Read.QueryRowContext(ctx, `SELECT status FROM subscriptions WHERE user_id = $1`, bob).Scan(&status); err != nil || status != "canceled" {
				t.Fatalf("bob after --apply: %q %v", status, err)
			}
		})
	}
}
