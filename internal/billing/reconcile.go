package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/stripe/stripe-go/v86"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// Kinds of difference reconcile reports.
const (
	DiffMissing = "missing" // Stripe has a subscription that gives access; the site does not show it
	DiffExtra   = "extra"   // the site shows a paid membership Stripe does not have
	DiffDiffers = "differs" // both have it, with another status, cancellation, period end or price
	DiffOrphan  = "orphan"  // a Stripe subscription that belongs to no account here (never fixed)
)

// Difference is one row where the site and Stripe disagree.
type Difference struct {
	Kind           string
	UserID         string
	Email          string
	SubscriptionID string
	// Site and Stripe describe each side's state in a few words.
	Site, Stripe string
	// Fixed is true when --apply wrote Stripe's state over the site's.
	Fixed bool
	// Why says why a difference was not fixed.
	Why string
}

// Reconciliation compares the site's memberships with Stripe's
// subscriptions to the tribe's prices (STRIPE_PRICE_ID and
// STRIPE_PRICE_ID_ANNUAL).
type Reconciliation struct {
	StripeSubscriptions int
	SiteMemberships     int
	Differences         []Difference
	// StripeMRR and SiteMRR are monthly recurring revenue (active and
	// past-due subscriptions, cancel-pending included) by currency, in the
	// smallest unit, after discounts (an annual price counts as 1/12).
	StripeMRR map[string]int64
	SiteMRR   map[string]int64
}

// siteSub is a paid membership as the site has it.
type siteSub struct {
	userID, email, subID, status string
	cancel                       bool
	periodEnd                    *time.Time
	price                        Price
	priced                       bool // a ledger row gave the price
}

func (s siteSub) describe() string {
	d := s.status
	if s.cancel {
		d += ", cancels at period end"
	}
	if s.periodEnd != nil {
		d += ", period ends " + s.periodEnd.UTC().Format(time.DateOnly)
	}
	if !s.priced {
		return d + ", price unknown"
	}
	return d + ", " + formatPrice(s.price)
}

func describeRemote(r remoteSub) string {
	d := r.Status
	if r.CancelSoon {
		d += ", cancels at period end"
	}
	if !r.PeriodEnd.IsZero() {
		d += ", period ends " + r.PeriodEnd.UTC().Format(time.DateOnly)
	}
	return d + ", " + formatPrice(r.Price)
}

func formatPrice(p Price) string {
	d := fmt.Sprintf("%s %s/%s", FormatMinor(p.Amount, p.Currency), upper(p.Currency), p.Interval)
	if p.Discount > 0 {
		d += fmt.Sprintf(" less %s off", FormatMinor(p.Discount, p.Currency))
	}
	return d
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// zeroDecimal are the currencies Stripe counts in whole units.
var zeroDecimal = map[string]bool{"bif": true, "clp": true, "djf": true, "gnf": true, "jpy": true, "kmf": true,
	"krw": true, "mga": true, "pyg": true, "rwf": true, "ugx": true, "vnd": true, "vuv": true, "xaf": true, "xof": true, "xpf": true}

// FormatMinor writes an amount in the currency's smallest unit as a decimal
// number of its main unit (1999 usd is "19.99"; 500 jpy is "500").
func FormatMinor(amount int64, currency string) string {
	if zeroDecimal[currency] {
		return fmt.Sprintf("%d", amount)
	}
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	return fmt.Sprintf("%s%d.%02d", sign, amount/100, amount%100)
}

// countsAsMRR reports whether a status bills: active, and past_due while
// Stripe retries.
func countsAsMRR(status string) bool { return status == StatusActive || status == StatusPastDue }

// Reconcile lists Stripe's subscriptions to the tribe's prices and compares
// them with the site's memberships. With apply, every missing, extra and
// differing row is fixed on the site's side through the code the webhooks
// use (applySub), which records each fix in the membership ledger. Without
// online payment it is billing_unavailable.
func (s *Service) Reconcile(ctx context.Context, apply bool) (Reconciliation, error) {
	if !s.Enabled() {
		return Reconciliation{}, errOff()
	}
	out := Reconciliation{StripeMRR: map[string]int64{}, SiteMRR: map[string]int64{}}
	var remote []remoteSub
	created := map[string]int64{}
	// One list per price (monthly, then annual): Stripe filters a list by
	// one price. A subscription listed under both is counted once.
	for _, price := range s.prices() {
		params := &stripe.SubscriptionListParams{
			Price:      stripe.String(price),
			Status:     stripe.String("all"),
			ListParams: stripe.ListParams{Limit: stripe.Int64(100)},
		}
		params.AddExpand("data.discounts.source.coupon")
		list := s.stripe.V1Subscriptions.List(ctx, params)
		for sub, err := range list.All(ctx) {
			if err != nil {
				return Reconciliation{}, fmt.Errorf("list subscriptions from Stripe: %w", err)
			}
			r := s.remote(sub, stripeTime(list.LastResponse(), s.now().Unix()))
			if _, seen := created[r.ID]; seen || !r.OurPrice {
				continue
			}
			remote = append(remote, r)
			created[r.ID] = sub.Created
			if countsAsMRR(r.Status) && r.Price.Currency != "" {
				out.StripeMRR[r.Price.Currency] += r.Price.NetMonthly()
			}
		}
	}
	out.StripeSubscriptions = len(remote)
	site, err := s.siteSubs(ctx)
	if err != nil {
		return Reconciliation{}, err
	}
	out.SiteMemberships = len(site)
	for _, m := range site {
		if countsAsMRR(m.status) && m.priced {
			out.SiteMRR[m.price.Currency] += m.price.NetMonthly()
		}
	}
	// The subscription that counts for each member: one that gives access,
	// then the newest (as a refresh picks it).
	best := map[string]remoteSub{}
	for _, r := range remote {
		userID, err := userForSub(ctx, s.db.Read, r)
		if err != nil {
			return Reconciliation{}, err
		}
		if userID == "" {
			if r.grants() {
				out.Differences = append(out.Differences, Difference{Kind: DiffOrphan, SubscriptionID: r.ID,
					Stripe: describeRemote(r), Why: "no account here has its customer, subscription or user_id"})
			}
			continue
		}
		b, ok := best[userID]
		if !ok || (r.grants() && !b.grants()) || (r.grants() == b.grants() && created[r.ID] > created[b.ID]) {
			best[userID] = r
		}
	}
	for userID, r := range best {
		m, onSite := site[userID]
		switch {
		case onSite && m.subID == r.ID:
			if m.status == r.Status && m.cancel == r.CancelSoon && sameTime(m.periodEnd, r.PeriodEnd) && m.priced && m.price == r.Price {
				continue
			}
			out.Differences = append(out.Differences, Difference{Kind: DiffDiffers, UserID: userID, Email: m.email,
				SubscriptionID: r.ID, Site: m.describe(), Stripe: describeRemote(r)})
		case r.grants():
			d := Difference{Kind: DiffMissing, UserID: userID, SubscriptionID: r.ID, Stripe: describeRemote(r), Site: "no paid membership"}
			if onSite {
				d.Email, d.Site = m.email, m.describe()+" ("+m.subID+")"
			}
			out.Differences = append(out.Differences, d)
		default:
			continue
		}
		if apply {
			d := &out.Differences[len(out.Differences)-1]
			d.Fixed, d.Why, err = s.reconcileApply(ctx, userID, r)
			if err != nil {
				return Reconciliation{}, err
			}
		}
	}
	for userID, m := range site {
		if r, ok := best[userID]; ok && (r.ID == m.subID || r.grants()) {
			continue // compared above
		}
		if !GrantsAccess(m.status) {
			continue // ended on the site too
		}
		d := Difference{Kind: DiffExtra, UserID: userID, Email: m.email, SubscriptionID: m.subID, Site: m.describe(),
			Stripe: "no subscription to the tribe's prices"}
		if r, ok := best[userID]; ok {
			d.Stripe = describeRemote(r) + " (" + r.ID + ")"
		}
		if apply {
			ended, err := s.endedOnStripe(ctx, m.subID)
			if err != nil {
				return Reconciliation{}, err
			}
			if d.Fixed, d.Why, err = s.reconcileApply(ctx, userID, ended); err != nil {
				return Reconciliation{}, err
			}
		}
		out.Differences = append(out.Differences, d)
	}
	sort.SliceStable(out.Differences, func(i, j int) bool {
		a, b := out.Differences[i], out.Differences[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Email+a.SubscriptionID < b.Email+b.SubscriptionID
	})
	return out, nil
}

// endedOnStripe is the state to write over a site row whose subscription
// Stripe does not list for our price: Stripe's own state when it still has
// the subscription (another price: read as canceled for the tribe), else
// canceled, as of Stripe's clock now.
func (s *Service) endedOnStripe(ctx context.Context, subID string) (remoteSub, error) {
	r, err := s.fetchSub(ctx, subID)
	var se *stripe.Error
	switch {
	case err == nil && r.OurPrice:
		return r, nil
	case err == nil:
		r.OurPrice, r.Status, r.CancelSoon = true, StatusCanceled, false
		return r, nil
	case errors.As(err, &se) && se.HTTPStatusCode == 404:
		return remoteSub{ID: subID, OurPrice: true, Status: StatusCanceled, AsOf: s.now().Unix()}, nil
	}
	return remoteSub{}, err
}

// reconcileApply writes r over the member's row as a webhook would; a
// refusal of applySub is reported as why, not as an error.
func (s *Service) reconcileApply(ctx context.Context, userID string, r remoteSub) (bool, string, error) {
	r.Source = SourceReconcile
	r.EventID = fmt.Sprintf("reconcile_%s_%d", r.ID, r.AsOf)
	applied := false
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		before, err := readRow(ctx, tx, userID)
		if err != nil {
			return err
		}
		if _, err := s.applySub(ctx, tx, userID, r, nil); err != nil {
			return err
		}
		after, err := readRow(ctx, tx, userID)
		applied = err == nil && (after.SyncedAt != before.SyncedAt || after.Status != before.Status || after.SubID != before.SubID)
		return err
	})
	var rej *rejection
	if errors.As(err, &rej) {
		return false, rej.reason, nil
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return false, e.Message, nil
	}
	if err != nil {
		return false, "", fmt.Errorf("reconcile %s of %s: %w", r.ID, userID, err)
	}
	if !applied {
		return false, "the site has newer state for this member", nil
	}
	return true, "", nil
}

// siteSubs reads the site's paid memberships (rows linked to a Stripe
// subscription) with the price of each from its newest ledger row.
func (s *Service) siteSubs(ctx context.Context) (map[string]siteSub, error) {
	rows, err := s.db.Read.QueryContext(ctx, `
		SELECT s.user_id, u.email, s.stripe_subscription_id, s.status, s.cancel_at_period_end, s.current_period_end,
		       l.subscription_id, l.amount, l.currency, l.billing_interval, l.interval_count, l.discount
		  FROM subscriptions s
		  JOIN users u ON u.id = s.user_id
		  LEFT JOIN membership_ledger l ON l.id = (
		       SELECT id FROM membership_ledger WHERE user_id = s.user_id ORDER BY user_seq DESC LIMIT 1)
		 WHERE s.stripe_subscription_id IS NOT NULL AND s.complimentary = FALSE`)
	if err != nil {
		return nil, fmt.Errorf("read the site's memberships: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]siteSub{}
	for rows.Next() {
		var (
			m        siteSub
			end      store.NullTime
			ledgerID sql.NullString
			amount   sql.NullInt64
			cur, ivl sql.NullString
			count    sql.NullInt64
			discount sql.NullInt64
		)
		if err := rows.Scan(&m.userID, &m.email, &m.subID, &m.status, &m.cancel, &end, &ledgerID, &amount, &cur, &ivl, &count, &discount); err != nil {
			return nil, fmt.Errorf("read the site's memberships: %w", err)
		}
		if end.Valid {
			t := end.Time.Time
			m.periodEnd = &t
		}
		if ledgerID.Valid && ledgerID.String == m.subID && cur.String != "" {
			m.priced = true
			m.price = Price{Amount: amount.Int64, Currency: cur.String, Interval: ivl.String, IntervalCount: int(count.Int64),
				Discount: discount.Int64}
		}
		out[m.userID] = m
	}
	return out, rows.Err()
}
