package booking

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing"
	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// buyCredits records a pending purchase of a package for email and applies
// its paid Checkout Session through the webhook's handler (CheckoutPaid), as
// billing does: the real grant path, without Stripe. It returns the
// purchase id and the credits token mailed with the grant.
func buyCredits(t testing.TB, s *Service, db *store.DB, pkg, email string) string {
	t.Helper()
	ctx := context.Background()
	var p Package
	for _, x := range s.Packages() {
		if x.ID == pkg {
			p = x
		}
	}
	if p.ID == "" {
		t.Fatalf("no package %s", pkg)
	}
	id := store.NewID()
	now := store.At(s.now())
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO credit_purchases (id, package_id, package_name, type_id, credits, valid_days,
		status, name, email, email_normalized, price, currency, checkout_session_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', 'Ada Lovelace', $7, $7, $8, $9, $10, $11, $11)`,
		id, p.ID, p.Name, p.Type, p.Count, p.ValidDays, email, p.Price, p.Currency, "cs_"+id, now); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckoutPaid(ctx, billing.CompletedPayment{Reference: "package-" + id, CheckoutSessionID: "cs_" + id,
		PaymentIntentID: "pi_" + id, Amount: p.Price, Currency: p.Currency}); err != nil {
		t.Fatalf("grant: %v", err)
	}
	return id
}

// creditToken is the credits token of the latest credits mail to email.
func creditToken(t testing.TB, db *store.DB, email string) string {
	t.Helper()
	var text string
	if err := db.Read.QueryRowContext(context.Background(), `SELECT text_body FROM mail_outbox WHERE to_addr = $1
		AND text_body LIKE '%/bookings/credits?%' ORDER BY created_at DESC, id DESC LIMIT 1`, email).Scan(&text); err != nil {
		t.Fatalf("credits mail to %s: %v", email, err)
	}
	_, rest, _ := strings.Cut(text, "&token=")
	return strings.Fields(rest)[0]
}

func remaining(t testing.TB, s *Service, email, token string) int {
	t.Helper()
	got, err := s.CreditsByToken(context.Background(), email, token)
	if err != nil {
		t.Fatalf("credits of %s: %v", email, err)
	}
	n := 0
	for _, c := range got.Credits {
		n += c.Remaining
	}
	return n
}

func withCredit(r Request, token string) Request {
	r.UseCredit, r.CreditToken = true, token
	return r
}

// A package's payment grants its credits once, with one mail, however
// often and however concurrently the webhook is delivered.
func TestCreditsGrantedOnceUnderReplayedDeliveries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		id := buyCredits(t, s, db, "deep-dive-4", "ada@example.com")
		paid := billing.CompletedPayment{Reference: "package-" + id, CheckoutSessionID: "cs_" + id, PaymentIntentID: "pi_" + id,
			Amount: 99900, Currency: "USD"}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if err := s.CheckoutPaid(ctx, paid); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'ada@example.com' AND subject = 'Your credits: 4 Deep Dives'`); n != 1 {
			t.Fatalf("%d grant mails, want 1", n)
		}
		if n := remaining(t, s, "ada@example.com", creditToken(t, db, "ada@example.com")); n != 4 {
			t.Fatalf("%d credits, want 4", n)
		}
		// The credits lapse at the end of the 365th day on the owner's clock.
		var exp store.Time
		if err := db.Read.QueryRow(`SELECT expires_at FROM credit_purchases WHERE id = $1`, id).Scan(&exp); err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2027, time.January, 6, 0, 0, 0, 0, toronto); !exp.Equal(want) {
			t.Fatalf("credits lapse at %v, want %v", exp.Time.In(toronto), want)
		}
		// The list names the owner's last day, not the owner's midnight, which
		// is 05:00 UTC on the 6th.
		list, err := s.CreditsByToken(ctx, "ada@example.com", creditToken(t, db, "ada@example.com"))
		if err != nil || len(list.Credits) != 1 || list.Credits[0].LastDay != "2027-01-05" {
			t.Fatalf("credits listed: %+v, %v; want the last day 2027-01-05", list, err)
		}
	})
}

// Twenty bookings at once with one credit: the credit is found and spent in
// each booking's own transaction, so exactly one is confirmed and nineteen
// are told no_credit, on both engines.
func TestLastCreditRaceGivesExactlyOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		id := buyCredits(t, s, db, "deep-dive-4", "ada@example.com")
		token := creditToken(t, db, "ada@example.com")
		// Three of the four credits spent already: one left.
		for i := range 3 {
			c := book(t, s, withCredit(req("session-30", weekday(i, 9, 0), "ada@example.com"), token))
			if c.Booking.Status != StatusConfirmed || !c.Booking.Credit || c.Booking.Amount != 0 {
				t.Fatalf("booked with a credit: %+v", c.Booking)
			}
		}
		var (
			wg        sync.WaitGroup
			mu        sync.Mutex
			confirmed int
			refused   int
		)
		for i := range 20 {
			wg.Go(func() {
				r := withCredit(req("session-30", weekday(3+i/4, 10+2*(i%4), 0), "ada@example.com"), token)
				c, err := s.Book(ctx, r)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && c.Booking.Status == StatusConfirmed:
					confirmed++
				case errs.CodeOf(err) == errs.NoCredit:
					refused++
				default:
					t.Errorf("booking %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if confirmed != 1 || refused != 19 {
			t.Fatalf("%d confirmed, %d no_credit; want 1 and 19", confirmed, refused)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM credit_uses WHERE purchase_id = $1 AND returned_at IS NULL`, id); n != 4 {
			t.Fatalf("%d credits spent, want 4", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'confirmed'`); n != 4 {
			t.Fatalf("%d confirmed bookings, want 4", n)
		}
		if n := remaining(t, s, "ada@example.com", token); n != 0 {
			t.Fatalf("%d credits left", n)
		}
		// The database itself refuses a spend past the count, whatever
		// path writes it.
		err := db.Tx(ctx, func(tx *sql.Tx) error { return spendCredit(ctx, tx, id, "no-booking", s.now()) })
		wantCode(t, err, errs.NoCredit)
		_, err = db.Write.ExecContext(ctx, `UPDATE credit_purchases SET spent = credits + 1 WHERE id = $1`, id)
		if err == nil {
			t.Fatal("the database took more credits spent than bought")
		}
	})
}

// Who may spend a credit: the token's address only, for the package's type
// only; a booking with a credit and a taken time spends nothing.
func TestCreditsBelongToTheirAddressAndType(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		buyCredits(t, s, db, "deep-dive-4", "ada@example.com")
		token := creditToken(t, db, "ada@example.com")
		start := weekday(0, 9, 0)
		_, err := s.Book(ctx, withCredit(req("session-30", start, "eve@example.com"), token))
		wantField(t, err, "email")
		_, err = s.Book(ctx, withCredit(req("session-30", start, "ada@example.com"), "not-a-token"))
		wantCode(t, err, errs.NotFound)
		_, err = s.Book(ctx, withCredit(req("session-60", start, "ada@example.com"), token))
		wantCode(t, err, errs.NoCredit)
		r := req("session-30", start, "eve@example.com")
		r.UseCredit = true // no token, not signed in
		_, err = s.Book(ctx, r)
		wantCode(t, err, errs.NoCredit)
		_, err = s.CreditsByToken(ctx, "eve@example.com", token)
		wantCode(t, err, errs.NotFound)

		book(t, s, req("session-30", start, "bob@example.com")) // a hold takes the time
		_, err = s.Book(ctx, withCredit(req("session-30", start, "ada@example.com"), token))
		wantCode(t, err, errs.SlotTaken)
		if n := remaining(t, s, "ada@example.com", token); n != 4 {
			t.Fatalf("%d credits after a refused booking, want 4", n)
		}
	})
}

// Cancelling before the cut-off gives the credit back; after the cut-off
// the booker cannot cancel online and the credit stays spent; a reschedule
// keeps it; the owner's cancellation always gives it back.
func TestCancellingGivesTheCreditBackOnlyBeforeTheCutoff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		buyCredits(t, s, db, "deep-dive-4", "ada@example.com")
		token := creditToken(t, db, "ada@example.com")
		early := book(t, s, withCredit(req("session-30", weekday(2, 9, 0), "ada@example.com"), token))
		late := book(t, s, withCredit(req("session-30", weekday(2, 11, 0), "ada@example.com"), token))
		owned := book(t, s, withCredit(req("session-30", weekday(2, 13, 0), "ada@example.com"), token))
		if n := remaining(t, s, "ada@example.com", token); n != 1 {
			t.Fatalf("%d credits left after three bookings", n)
		}
		clock.Advance(time.Minute) // a change is one at a later instant
		moved, err := s.Reschedule(ctx, early.Booking.ID, early.Token, weekday(3, 9, 0).Format(time.RFC3339))
		if err != nil || !moved.Credit {
			t.Fatalf("reschedule: %+v %v", moved, err)
		}
		if n := remaining(t, s, "ada@example.com", token); n != 1 {
			t.Fatalf("%d credits left after a reschedule, want 1", n)
		}
		clock.Advance(time.Minute)
		b, refund, err := s.CancelByBooker(ctx, early.Booking.ID, early.Token)
		if err != nil || b.Status != StatusCancelled || refund != nil {
			t.Fatalf("cancel before the cut-off: %+v %+v %v", b, refund, err)
		}
		if n := remaining(t, s, "ada@example.com", token); n != 2 {
			t.Fatalf("%d credits left after a cancellation in time, want 2", n)
		}
		var text string
		if err := db.Read.QueryRow(`SELECT text_body FROM mail_outbox WHERE to_addr = 'ada@example.com' AND subject LIKE 'Cancelled:%'`).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "credit it used is back in your balance") {
			t.Fatalf("the cancellation does not say the credit is back: %s", text)
		}
		// Within the cut-off (24 hours) of the late one.
		clock.Set(late.Booking.Start.Add(-2 * time.Hour))
		_, _, err = s.CancelByBooker(ctx, late.Booking.ID, late.Token)
		wantCode(t, err, errs.Conflict)
		if n := remaining(t, s, "ada@example.com", token); n != 2 {
			t.Fatalf("%d credits left after a refused late cancellation, want 2", n)
		}
		if _, _, err := s.CancelByOwner(ctx, owned.Booking.ID); err != nil {
			t.Fatal(err)
		}
		if n := remaining(t, s, "ada@example.com", token); n != 3 {
			t.Fatalf("%d credits left after the owner cancelled, want 3", n)
		}
	})
}

// Credits lapse at the end of their validity; the reminder goes 14 days
// before at 09:00 on the owner's clock (across the spring clock change
// here), once, with two instances planning at the same moments, and only
// while credits are left.
func TestCreditsLapseWithOneReminderAcrossInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// Bought on 1 January 2026; the validity is then moved so that the
		// reminder's 14 days span the spring change (8 March 2026).
		c := clocktest.At(time.Date(2026, time.January, 1, 15, 0, 0, 0, time.UTC))
		cfg := Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example", Payments: true}
		a, b := New(db, cfg, WithClock(c.Now)), New(db, cfg, WithClock(c.Now))
		id := buyCredits(t, a, db, "strategy-3", "ada@example.com")
		spent := buyCredits(t, a, db, "strategy-3", "bob@example.com")
		// Bob's credits are all spent: no reminder for him.
		if _, err := db.Write.ExecContext(ctx, `UPDATE credit_purchases SET credits = 1 WHERE id = $1`, spent); err != nil {
			t.Fatal(err)
		}
		bobToken := creditToken(t, db, "bob@example.com")
		c.Set(time.Date(2026, time.January, 12, 15, 0, 0, 0, time.UTC))
		book(t, a, withCredit(req("session-60", weekday(1, 9, 0), "bob@example.com"), bobToken))
		// Move the validity so that the lapse is 20 March 2026 00:00 in
		// Toronto (after the change on 8 March) and the reminder is due on
		// 6 March 09:00 EST (before it): 14 days on the calendar, 335 hours.
		lapse := time.Date(2026, time.March, 20, 0, 0, 0, 0, toronto)
		if _, err := db.Write.ExecContext(ctx, `UPDATE credit_purchases SET expires_at = $1`, store.At(lapse)); err != nil {
			t.Fatal(err)
		}
		due := time.Date(2026, time.March, 6, 9, 0, 0, 0, toronto)
		if got := creditReminderAt(lapse, toronto); !got.Equal(due) || lapse.Sub(due) != 14*24*time.Hour-9*time.Hour-time.Hour {
			t.Fatalf("reminder at %v (%v before the lapse)", got, lapse.Sub(got))
		}
		plan := func() int {
			t.Helper()
			var (
				wg sync.WaitGroup
				mu sync.Mutex
				n  int
			)
			for _, s := range []*Service{a, b} {
				wg.Go(func() {
					q, err := s.PlanCreditReminders(ctx)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					n += q
					mu.Unlock()
				})
			}
			wg.Wait()
			return n
		}
		reminders := func() int {
			return count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'credits-expiry-%'`)
		}
		c.Set(due.Add(-time.Minute))
		if n := plan(); n != 0 || reminders() != 0 {
			t.Fatalf("%d reminders a minute early", reminders())
		}
		c.Set(due)
		if n := plan(); n != 1 {
			t.Fatalf("%d reminders queued by two instances, want 1", n)
		}
		for range 3 {
			c.Advance(time.Hour)
			plan()
		}
		if n := reminders(); n != 1 {
			t.Fatalf("%d reminders, want 1", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key = $1 AND to_addr = 'ada@example.com'
			AND subject = 'Your 3 Strategy Sessions credits lapse on Thursday 19 March 2026'`, creditReminderKey(id)); n != 1 {
			t.Fatalf("the reminder to Ada is not the one expected")
		}
		// The reminder's link opens the credits.
		token := creditToken(t, db, "ada@example.com")
		if n := remaining(t, a, "ada@example.com", token); n != 3 {
			t.Fatalf("%d credits before the lapse", n)
		}
		// The day before the lapse a credit books a call that day, not a
		// call after the lapse; at the lapse the credits are gone.
		c.Set(lapse.Add(-24 * time.Hour))
		_, err := a.Book(ctx, withCredit(req("session-60", at(2026, time.March, 20, 10, 0), "ada@example.com"), token))
		wantCode(t, err, errs.NoCredit)
		book(t, a, withCredit(req("session-60", at(2026, time.March, 19, 15, 0), "ada@example.com"), token))
		if n := remaining(t, a, "ada@example.com", token); n != 2 {
			t.Fatalf("%d credits the day before the lapse, want 2", n)
		}
		c.Set(lapse)
		if n := remaining(t, a, "ada@example.com", token); n != 0 {
			t.Fatalf("%d credits after the lapse", n)
		}
		_, err = a.Book(ctx, withCredit(req("session-60", at(2026, time.March, 23, 10, 0), "ada@example.com"), token))
		wantCode(t, err, errs.NoCredit)
	})
}

// A refund of the package's payment removes its unspent credits; spent ones
// stay spent and their bookings stand.
func TestRefundRemovesUnspentCredits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		id := buyCredits(t, s, db, "deep-dive-4", "ada@example.com")
		token := creditToken(t, db, "ada@example.com")
		kept := book(t, s, withCredit(req("session-30", weekday(1, 9, 0), "ada@example.com"), token))
		if err := s.PaymentRefunded(ctx, "pi_"+id); err != nil {
			t.Fatal(err)
		}
		if err := s.PaymentRefunded(ctx, "pi_"+id); err != nil { // a replay
			t.Fatal(err)
		}
		if n := remaining(t, s, "ada@example.com", token); n != 0 {
			t.Fatalf("%d credits after the refund", n)
		}
		var revoked int
		if err := db.Read.QueryRow(`SELECT revoked FROM credit_purchases WHERE id = $1`, id).Scan(&revoked); err != nil || revoked != 3 {
			t.Fatalf("revoked %d (%v), want 3", revoked, err)
		}
		b, err := s.Get(ctx, kept.Booking.ID)
		if err != nil || b.Status != StatusConfirmed {
			t.Fatalf("the booking made with a spent credit: %+v %v", b, err)
		}
		_, err = s.Book(ctx, withCredit(req("session-30", weekday(2, 9, 0), "ada@example.com"), token))
		wantCode(t, err, errs.NoCredit)
	})
}

// A member with tribe access pays the member price; anyone else, signed in
// or not, the full price, whatever they send.
func TestMemberPriceOnlyForMembers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, false)
		for _, u := range []struct{ id, email, status string }{
			{"u-member", "member@example.com", "active"}, {"u-lapsed", "lapsed@example.com", "canceled"}, {"u-none", "none@example.com", ""},
		} {
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at)
				VALUES ($1, $2, $2, 'x', $3)`, u.id, u.email, store.At(monday)); err != nil {
				t.Fatal(err)
			}
			if u.status != "" {
				if _, err := db.Write.ExecContext(ctx, `INSERT INTO subscriptions (user_id, status, current_period_end) VALUES ($1, $2, $3)`,
					u.id, u.status, store.At(monday.AddDate(0, 1, 0))); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i, c := range []struct {
			user string
			want int64
		}{{"u-member", 44900}, {"u-lapsed", 49900}, {"u-none", 49900}, {"", 49900}} {
			r := req("session-60", weekday(i, 9, 0), email(i))
			r.UserID = c.user
			got := book(t, s, r)
			if got.Booking.Amount != c.want {
				t.Errorf("%q pays %d, want %d", c.user, got.Booking.Amount, c.want)
			}
		}
		// A type without a member price costs members the same.
		r := req("session-30", weekday(5, 9, 0), "member@example.com")
		r.UserID = "u-member"
		if got := book(t, s, r); got.Booking.Amount != 29900 {
			t.Errorf("a member pays %d for a type without a member price", got.Booking.Amount)
		}
	})
}
