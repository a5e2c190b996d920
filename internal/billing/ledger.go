package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v86"

	"tribe/internal/store"
)

// Price is what one billing interval of a membership costs.
type Price struct {
	// Amount is in the currency's smallest unit (cents): every item of
	// STRIPE_PRICE_ID times its quantity. 0 when unknown or free.
	Amount int64 `json:"amount"`
	// Currency is ISO 4217 in lower case, as Stripe writes it; "" when unknown.
	Currency string `json:"currency"`
	// Interval is day, week, month or year; "" when unknown.
	Interval      string `json:"interval"`
	IntervalCount int    `json:"interval_count"`
	// Discount is what the subscription's discounts (promotion codes,
	// coupons) take off one interval, in the smallest unit, at most Amount;
	// 0 without one. A discount for the first invoice only is not counted.
	Discount int64 `json:"discount"`
}

func (p *Price) add(it *stripe.SubscriptionItem, subCurrency string) {
	q := it.Quantity
	if q <= 0 {
		q = 1 // a licensed item always has one; metered items have none until billed
	}
	p.Amount += it.Price.UnitAmount * q
	cur := string(it.Price.Currency)
	if cur == "" {
		cur = subCurrency
	}
	p.Currency = strings.ToLower(cur)
	p.IntervalCount = 1
	if rec := it.Price.Recurring; rec != nil {
		p.Interval = string(rec.Interval)
		p.IntervalCount = int(max(rec.IntervalCount, 1))
	}
}

// Monthly is the price as monthly recurring revenue in the smallest unit,
// rounded to the nearest unit (a year is 12 months, a week 52/12 of one, a
// day 365/12 of one); 0 when the interval is unknown.
func (p Price) Monthly() int64 { return p.monthly(p.Amount) }

// NetMonthly is Monthly after the discount: what the member really pays
// per month, the MRR Insights and reconcile count.
func (p Price) NetMonthly() int64 { return p.monthly(p.Amount - min(p.Discount, p.Amount)) }

// MonthlyDiscount is the monthly value of the discount: Monthly less
// NetMonthly, so the two always add up to the list price.
func (p Price) MonthlyDiscount() int64 { return p.Monthly() - p.NetMonthly() }

func (p Price) monthly(amount int64) int64 {
	n := int64(max(p.IntervalCount, 1))
	switch p.Interval {
	case "month":
		return divRound(amount, n)
	case "year":
		return divRound(amount, 12*n)
	case "week":
		return divRound(amount*52, 12*n)
	case "day":
		return divRound(amount*365, 12*n)
	}
	return 0
}

// takeDiscounts sets Discount from a subscription's discounts as Stripe
// reports them at asOf (Unix seconds). Each discount's coupon takes a
// percentage of the amount (rounded to the unit, as Stripe rounds) or a
// fixed amount in the price's currency; one that ended, or that applies
// to the first invoice only (duration once), takes nothing from the
// recurring price. The sum is capped at Amount.
func (p *Price) takeDiscounts(ds []*stripe.Discount, asOf int64) {
	p.Discount = 0
	for _, d := range ds {
		if d == nil || d.Source == nil || d.Source.Coupon == nil {
			continue
		}
		c := d.Source.Coupon
		if c.Duration == stripe.CouponDurationOnce || (d.End > 0 && d.End <= asOf) {
			continue
		}
		switch {
		case c.PercentOff > 0:
			p.Discount += int64(math.Round(float64(p.Amount) * c.PercentOff / 100))
		case c.AmountOff > 0 && strings.EqualFold(string(c.Currency), p.Currency):
			p.Discount += c.AmountOff
		}
	}
	p.Discount = min(p.Discount, p.Amount)
}

// discountsUnread reports whether some of ds are ids only (a webhook's
// payload does not expand them), so the amounts they take are unknown.
func discountsUnread(ds []*stripe.Discount) bool {
	for _, d := range ds {
		if d != nil && d.Source == nil {
			return true
		}
	}
	return false
}

func divRound(a, b int64) int64 { return (a + b/2) / b }

// Ledger sources: where a row of the membership ledger came from.
const (
	SourceWebhook   = "webhook"    // a Stripe webhook event; the row's id is the event's
	SourceRefresh   = "refresh"    // a read from Stripe after Checkout or the portal
	SourceReconcile = "reconcile"  // `tribe billing reconcile --apply`
	SourceCompGrant = "comp_grant" // an admin made the member complimentary
	SourceCompEnd   = "comp_end"   // an admin ended a complimentary membership
	SourceBackfill  = "backfill"   // a membership from before the ledger (migration 0017)
)

// LedgerEntry is one row of the membership ledger: a membership's state
// after a change, and when the change happened.
type LedgerEntry struct {
	// ID is the change's own id: the Stripe event's for a webhook.
	ID     string `json:"id"`
	UserID string `json:"user_id"`
	// Seq is the order of the member's changes (1, 2, ...), as applied.
	Seq            int       `json:"seq"`
	OccurredAt     time.Time `json:"occurred_at"`
	RecordedAt     time.Time `json:"recorded_at"`
	Source         string    `json:"source"`
	Status         string    `json:"status"`
	SubscriptionID string    `json:"subscription_id"`
	Complimentary  bool      `json:"complimentary"`
	// CompUntil is when a complimentary membership ends; nil for no end.
	CompUntil         *time.Time `json:"comp_until"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
	Price
}

// sameState reports whether two entries say the same about a membership.
func (e LedgerEntry) sameState(o LedgerEntry) bool {
	return e.Status == o.Status && e.SubscriptionID == o.SubscriptionID && e.Complimentary == o.Complimentary &&
		sameTimePtr(e.CompUntil, o.CompUntil) && e.CancelAtPeriodEnd == o.CancelAtPeriodEnd && e.Price == o.Price
}

func sameTimePtr(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

const ledgerColumns = `id, user_id, user_seq, occurred_at, recorded_at, source, status, subscription_id, complimentary, comp_until,
	cancel_at_period_end, amount, currency, billing_interval, interval_count, discount`

func scanLedger(row interface{ Scan(...any) error }) (LedgerEntry, error) {
	var (
		e         LedgerEntry
		at, rec   store.Time
		compUntil store.NullTime
	)
	err := row.Scan(&e.ID, &e.UserID, &e.Seq, &at, &rec, &e.Source, &e.Status, &e.SubscriptionID, &e.Complimentary, &compUntil,
		&e.CancelAtPeriodEnd, &e.Amount, &e.Currency, &e.Interval, &e.IntervalCount, &e.Discount)
	if err != nil {
		return LedgerEntry{}, err
	}
	e.OccurredAt, e.RecordedAt = at.Time, rec.Time
	if compUntil.Valid {
		t := compUntil.Time.Time
		e.CompUntil = &t
	}
	return e, nil
}

// EachLedgerEntry calls fn with every row of the membership ledger by the
// time the change happened, then member and their order. It stops at fn's
// first error and returns it.
func EachLedgerEntry(ctx context.Context, db *store.DB, fn func(LedgerEntry) error) error {
	rows, err := db.Read.QueryContext(ctx, `SELECT `+ledgerColumns+` FROM membership_ledger ORDER BY occurred_at, user_id, user_seq`)
	if err != nil {
		return fmt.Errorf("read the membership ledger: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		e, err := scanLedger(rows)
		if err != nil {
			return fmt.Errorf("read the membership ledger: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the membership ledger: %w", err)
	}
	return nil
}

// LedgerSince returns the ledger rows recorded at or after since, in no
// particular order, and how many rows the ledger held just before, so a
// reader that keeps rows can tell when it missed one.
func LedgerSince(ctx context.Context, db *store.DB, since time.Time) ([]LedgerEntry, int, error) {
	var total int
	if err := db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM membership_ledger`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count the membership ledger: %w", err)
	}
	rows, err := db.Read.QueryContext(ctx, `SELECT `+ledgerColumns+` FROM membership_ledger WHERE recorded_at >= $1`, store.At(since))
	if err != nil {
		return nil, 0, fmt.Errorf("read the membership ledger: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []LedgerEntry{}
	for rows.Next() {
		e, err := scanLedger(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read the membership ledger: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// Ledger returns every row of the membership ledger in the order of
// EachLedgerEntry.
func Ledger(ctx context.Context, db *store.DB) ([]LedgerEntry, error) {
	out := []LedgerEntry{}
	err := EachLedgerEntry(ctx, db, func(e LedgerEntry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// lastEntry is the member's newest ledger row; ok is false when they have none.
func lastEntry(ctx context.Context, q querier, userID string) (LedgerEntry, bool, error) {
	e, err := scanLedger(q.QueryRowContext(ctx, `SELECT `+ledgerColumns+` FROM membership_ledger
		WHERE user_id = $1 ORDER BY user_seq DESC LIMIT 1`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return LedgerEntry{}, false, nil
	}
	if err != nil {
		return LedgerEntry{}, false, fmt.Errorf("read the ledger of %s: %w", userID, err)
	}
	return e, true, nil
}

// appendLedger records e in the transaction that makes the change, unless
// the member's newest row already says the same (a redelivered state, or a
// refresh that found nothing new) or a row with e's id exists.
func appendLedger(ctx context.Context, tx *sql.Tx, e LedgerEntry, now time.Time) error {
	last, ok, err := lastEntry(ctx, tx, e.UserID)
	if err != nil {
		return err
	}
	if ok && last.sameState(e) {
		return nil
	}
	e.Seq = last.Seq + 1
	if e.ID == "" {
		e.ID = e.Source + "_" + store.NewID()
	}
	if e.IntervalCount <= 0 {
		e.IntervalCount = 1
	}
	var comp store.NullTime
	if e.CompUntil != nil {
		comp = store.NullTime{Time: store.At(*e.CompUntil), Valid: true}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO membership_ledger (`+ledgerColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (id) DO NOTHING`,
		e.ID, e.UserID, e.Seq, store.At(e.OccurredAt), store.At(now), e.Source, e.Status, e.SubscriptionID, e.Complimentary, comp,
		e.CancelAtPeriodEnd, e.Amount, e.Currency, e.Interval, e.IntervalCount, e.Discount)
	if err != nil {
		return fmt.Errorf("record the membership change %s of %s: %w", e.ID, e.UserID, err)
	}
	return nil
}

// ledgerOfSub is the ledger row of a Stripe state applied to a member: in
// is the state the change came with (its event id names the row), next the
// state written.
func ledgerOfSub(userID string, in, next remoteSub) LedgerEntry {
	src := in.Source
	if src == "" {
		src = SourceRefresh
		if in.EventID != "" {
			src = SourceWebhook
		}
	}
	return LedgerEntry{
		ID: in.EventID, UserID: userID, OccurredAt: time.Unix(next.AsOf, 0).UTC(), Source: src,
		Status: next.Status, SubscriptionID: next.ID, CancelAtPeriodEnd: next.CancelSoon, Price: next.Price,
	}
}
