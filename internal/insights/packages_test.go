package insights

import (
	"context"
	"testing"
	"time"

	"tribe/internal/booking"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// Package sales per month from the database: what was really paid in the
// month it was paid, a refund taken off in the month it was made, an open
// or closed-unpaid checkout not counted, money in another currency not
// summed; booking money stays in its own fields.
func TestPackageRevenuePerMonth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		at := func(s string) time.Time { return date(s).Add(10 * time.Hour) }
		add := func(id, status string, amount any, currency string, paid, updated time.Time) {
			t.Helper()
			var paidAt, expires any
			if !paid.IsZero() {
				paidAt, expires = store.At(paid), store.At(paid.AddDate(1, 0, 0))
			}
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO credit_purchases (id, package_id, package_name, type_id, credits,
				valid_days, status, name, email, email_normalized, price, currency, amount_paid, paid_at, expires_at, created_at, updated_at)
				VALUES ($1, 'deep-dive-4', '4 Deep Dives', 'session-30', 4, 365, $2, 'Ada', 'ada@example.com', 'ada@example.com',
				99900, $3, $4, $5, $6, $7, $7)`, id, status, currency, amount, paidAt, expires, store.At(updated)); err != nil {
				t.Fatal(err)
			}
		}
		add("p1", "paid", 79900, "USD", at("2026-03-03"), at("2026-03-03"))     // a promotion code: $799 of $999
		add("p2", "refunded", 99900, "USD", at("2026-03-20"), at("2026-04-02")) // refunded in April
		add("p3", "paid", 99900, "USD", at("2026-04-10"), at("2026-04-10"))
		add("p4", "paid", 50000, "EUR", at("2026-04-11"), at("2026-04-11"))
		add("p5", "pending", nil, "USD", time.Time{}, at("2026-04-12"))
		add("p6", "expired", nil, "USD", time.Time{}, at("2026-04-13"))
		add("p7", "paid", 99900, "USD", at("2026-02-27"), at("2026-02-27")) // before the range

		from, to := date("2026-03-01"), date("2026-04-30")
		takings, err := booking.PackageTakings(ctx, db, from, to.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		r := report(nil, "2026-03-01", "2026-04-30", func(in *Input) {
			for _, tk := range takings {
				in.Packages = append(in.Packages, Money(tk))
			}
			in.Money = []Money{{At: at("2026-03-05"), Amount: 29900, Currency: "usd"}}
		})
		mar, apr := r.Months[0], r.Months[1]
		if r.Currency != "usd" || mar.PackagesSold != 2 || mar.PackagesRevenue != 79900+99900 || mar.PackagesRefunded != 0 ||
			mar.BookingsGross != 29900 || mar.OneOffNet != 29900+79900+99900 {
			t.Fatalf("March = %+v", mar)
		}
		if apr.PackagesSold != 1 || apr.PackagesRevenue != 99900 || apr.PackagesRefunded != 99900 || apr.PackagesNet != 0 || apr.OneOffNet != 0 {
			t.Fatalf("April = %+v", apr)
		}
		tot := r.Totals
		if tot.PackagesSold != 3 || tot.PackagesRevenue != 79900+2*99900 || tot.PackagesRefunded != 99900 ||
			tot.PackagesNet != 79900+99900 || tot.BookingsNet != 29900 || tot.OneOffNet != 29900+79900+99900 {
			t.Fatalf("totals = %+v", tot)
		}
		if len(r.OtherCurrencies) != 1 || r.OtherCurrencies[0].Currency != "eur" || r.OtherCurrencies[0].PackagesNet != 50000 {
			t.Fatalf("other currencies = %+v", r.OtherCurrencies)
		}
	})
}
