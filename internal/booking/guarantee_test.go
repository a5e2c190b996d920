package booking

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// A hundred visitors press Book on the same time at once (Cal.com #13397):
// exactly one gets it, the other 99 are told slot_taken (409).
func TestConcurrentHoldsOnOneSlotGiveExactlyOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		start := at(2026, time.January, 7, 10, 0)
		const n = 100
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			won   int
			codes = map[string]int{}
		)
		for i := range n {
			wg.Go(func() {
				_, err := s.Book(context.Background(), req("session-30", start, email(i)))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won++
				} else {
					codes[errs.CodeOf(err)]++
					if errs.CodeOf(err) != errs.SlotTaken {
						t.Errorf("booker %d: %v", i, err)
					}
				}
			})
		}
		wg.Wait()
		if won != 1 || codes[errs.SlotTaken] != n-1 {
			t.Fatalf("%d holds and %v refusals, want 1 hold and %d slot_taken", won, codes, n-1)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'held'`); got != 1 {
			t.Fatalf("%d held rows", got)
		}
	})
}

// Bookings of 15, 30 and 60 minutes (and the two-hour training) asked for
// in parallel over overlapping times: whatever wins, no two held or
// confirmed bookings overlap afterwards, buffers included.
func TestMixedDurationsNeverOverlap(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		types := []string{"session-15", "session-30", "session-60", "private"}
		day := at(2026, time.January, 7, 9, 0)
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range 120 {
			wg.Go(func() {
				typ := types[rand.IntN(len(types))]
				start := day.Add(time.Duration(rand.IntN(16)) * 15 * time.Minute) // 09:00 to 12:45
				_, err := s.Book(context.Background(), req(typ, start, email(i)))
				switch errs.CodeOf(err) {
				case "":
					mu.Lock()
					won++
					mu.Unlock()
				case errs.SlotTaken, errs.Invalid: // taken, or too long for the day's hours
				default:
					t.Errorf("%s at %s: %v", typ, start, err)
				}
			})
		}
		wg.Wait()
		rows, err := db.Read.QueryContext(context.Background(),
			`SELECT blocked_from, blocked_until FROM bookings WHERE status IN ('held', 'requested', 'confirmed') ORDER BY blocked_from`)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = rows.Close() }()
		var prev time.Time
		n := 0
		for rows.Next() {
			var from, until store.Time
			if err := rows.Scan(&from, &until); err != nil {
				t.Fatal(err)
			}
			if n > 0 && from.Before(prev) {
				t.Fatalf("blocked time starting %s overlaps the previous one ending %s", from, prev)
			}
			prev = until.Time
			n++
		}
		if n != won || won < 2 {
			t.Fatalf("%d rows for %d successful bookings (want at least 2)", n, won)
		}
	})
}

// A hold that lapses frees its time (Cal.com #29958): the slot is offered
// again and another visitor can book it, even before any sweep has marked
// the hold expired.
func TestExpiredHoldFreesSlot(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		start := at(2026, time.January, 7, 10, 0)
		slot := start.In(toronto).Format(time.RFC3339)
		first := book(t, s, req("session-30", start, "first@example.com"))
		if first.Booking.Status != StatusHeld || !first.Booking.ExpiresAt.Equal(monday.Add(HoldTTL)) {
			t.Fatalf("hold %+v", first.Booking)
		}
		if contains(slotsOn(t, s, "session-30", "2026-01-07", "America/Toronto"), slot) {
			t.Fatal("a live hold's time is still offered")
		}
		_, err := s.Book(context.Background(), req("session-30", start, "second@example.com"))
		wantCode(t, err, errs.SlotTaken)

		clock.Advance(HoldTTL)
		if got := count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'held'`); got != 1 {
			t.Fatalf("nothing has swept yet, but %d rows say held", got)
		}
		if !contains(slotsOn(t, s, "session-30", "2026-01-07", "America/Toronto"), slot) {
			t.Fatal("a lapsed hold's time is not offered again")
		}
		second := book(t, s, req("session-30", start, "second@example.com"))
		if second.Booking.Status != StatusHeld {
			t.Fatalf("second hold %+v", second.Booking)
		}
		if b, _ := s.Get(context.Background(), first.Booking.ID); b.Status != StatusExpired {
			t.Fatalf("the lapsed hold is %s, want expired", b.Status)
		}
	})
}

// A payment that arrives after its hold lapsed (Cal.com #22126) takes the
// time again if it is still free, and otherwise is refunded in full: never
// a confirmed booking on a taken time, never money kept without a booking.
func TestLatePaymentRetakesSlotOrRefunds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		pay := func(b *Booking) Payment {
			return Payment{BookingID: b.ID, CheckoutSessionID: "cs_" + b.ID, PaymentIntentID: "pi_" + b.ID, Amount: b.Amount, Currency: b.Currency}
		}

		free := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "late@example.com")).Booking
		clock.Advance(HoldTTL + time.Minute)
		b, refund, err := s.ConfirmPaid(ctx, pay(free))
		if err != nil || refund != nil || b.Status != StatusConfirmed || b.PaidAt == nil {
			t.Fatalf("late payment on a free time: %+v, refund %+v, %v", b, refund, err)
		}

		lost := book(t, s, req("session-60", at(2026, time.January, 8, 13, 0), "slow@example.com")).Booking
		clock.Advance(HoldTTL + time.Minute)
		book(t, s, req("session-30", at(2026, time.January, 8, 13, 30), "quick@example.com"))
		b, refund, err = s.ConfirmPaid(ctx, pay(lost))
		if err != nil || b.Status != StatusExpired || b.PaidAt == nil {
			t.Fatalf("late payment on a taken time: %+v, %v", b, err)
		}
		want := Refund{BookingID: lost.ID, PaymentIntentID: "pi_" + lost.ID, Amount: 49900, Currency: "USD", IdempotencyKey: "booking-refund-" + lost.ID + "-0"}
		if refund == nil || *refund != want {
			t.Fatalf("refund %+v, want %+v", refund, want)
		}
		// The same event again: still owed, the same refund (one, by its key).
		if _, again, err := s.ConfirmPaid(ctx, pay(lost)); err != nil || again == nil || *again != want {
			t.Fatalf("replayed payment: refund %+v, %v", again, err)
		}
		if _, err := s.RecordRefund(ctx, lost.ID, "re_1", 49900); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordRefund(ctx, lost.ID, "re_1", 49900); err != nil {
			t.Fatalf("the same refund recorded twice: %v", err)
		}
		if _, again, err := s.ConfirmPaid(ctx, pay(lost)); err != nil || again != nil {
			t.Fatalf("after the refund nothing is owed: %+v, %v", again, err)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'confirmed' AND start_at < $1 AND end_at > $2`,
			store.At(at(2026, time.January, 8, 14, 0)), store.At(at(2026, time.January, 8, 13, 0))); got != 0 {
			t.Fatalf("%d confirmed bookings on the taken time", got)
		}
	})
}

// Two instances sweep at the same moment: every lapsed hold is marked
// expired exactly once.
func TestSweepOnTwoInstancesExpiresEachHoldOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, clock := newService(t, db, true)
		b := New(db, Config{Site: site, OwnerEmail: "owner@example.com", Payments: true}, WithClock(clock.Now))
		for i := range 8 {
			book(t, a, req("session-15", weekday(i, 9, 0), email(i)))
		}
		clock.Advance(HoldTTL)
		var wg sync.WaitGroup
		var n [2]int64
		for i, s := range []*Service{a, b} {
			wg.Go(func() {
				var err error
				if n[i], err = s.SweepExpired(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n[0]+n[1] != 8 || count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'expired'`) != 8 {
			t.Fatalf("sweeps marked %d and %d, want 8 in all", n[0], n[1])
		}
	})
}

// The rule lives in the database: rows written straight to the table,
// concurrently and without the service's lock, still never overlap.
func TestDatabaseRefusesOverlapWrittenBehindTheServiceBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		base := time.Date(2026, 2, 2, 15, 0, 0, 0, time.UTC)
		insert := func(i int, status string, from, until time.Time) error {
			_, err := db.Write.ExecContext(ctx, `INSERT INTO bookings (id, type_id, status, start_at, end_at, blocked_from, blocked_until,
				expires_at, name, email, email_normalized, time_zone, amount, currency, token_hash)
				VALUES ($1, 'session-30', $2, $3, $4, $5, $6, $7, 'X', $8, $8, 'UTC', 100, 'USD', $9)`,
				store.NewID(), status, store.At(from.Add(10*time.Minute)), store.At(until.Add(-10*time.Minute)),
				store.At(from), store.At(until), store.At(base.Add(time.Hour)), email(i), hashToken(email(i)))
			return err
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, refused := 0, 0
		for i := range 20 {
			wg.Go(func() {
				// Each row is 50 minutes long and starts 0 to 45 minutes after
				// base: every pair overlaps.
				from := base.Add(time.Duration(i%10) * 5 * time.Minute)
				err := insert(i, []string{"held", "requested", "confirmed"}[i%3], from, from.Add(50*time.Minute))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case isOverlap(err):
					refused++
				default:
					t.Errorf("insert %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if ok != 1 || refused != 19 {
			t.Fatalf("%d rows written and %d refused, want 1 and 19", ok, refused)
		}
		// Rows that do not block may overlap anything, and touching is not overlapping.
		if err := insert(100, "cancelled", base, base.Add(time.Hour)); err != nil {
			t.Fatalf("a cancelled row: %v", err)
		}
		if err := insert(101, "confirmed", base.Add(-time.Hour), base); err != nil {
			t.Fatalf("a row ending where another starts: %v", err)
		}
		// Bringing a cancelled row back over a blocking one is refused too.
		_, err := db.Write.ExecContext(ctx, `UPDATE bookings SET status = 'confirmed' WHERE status = 'cancelled'`)
		if !isOverlap(err) {
			t.Fatalf("reviving an overlapping row: %v", err)
		}
	})
}

// A burst of bookings from one address cannot squat the calendar: at most
// three open per e-mail address, five per client address, with the time
// until one lapses.
func TestOpenHoldLimitsPerEmailAndClient(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		slot := func(i int) time.Time { return weekday(i, 9, 0) }
		for i := range MaxOpenPerEmail {
			book(t, s, req("session-15", slot(i), "Squatter@Example.com"))
			clock.Advance(time.Minute)
		}
		_, err := s.Book(context.Background(), req("session-15", slot(3), " squatter@example.com "))
		wantCode(t, err, errs.RateLimited)
		le, ok := err.(*errs.Error)
		if !ok || le.RetryAfter != HoldTTL-3*time.Minute {
			t.Fatalf("limit error %#v, want Retry-After %v", err, HoldTTL-3*time.Minute)
		}
		clock.Advance(le.RetryAfter)
		book(t, s, req("session-15", slot(3), "squatter@example.com"))

		for i := range 4 {
			r := req("session-15", slot(4+i), email(i))
			r.ClientAddr = "203.0.113.9"
			book(t, s, r)
		}
		r := req("session-15", slot(9), email(9))
		r.ClientAddr = "203.0.113.9"
		book(t, s, r) // the fifth
		r = req("session-15", slot(10), email(10))
		r.ClientAddr = "203.0.113.9"
		_, err = s.Book(context.Background(), r)
		wantCode(t, err, errs.RateLimited)
	})
}

// A double click sends the same person back to the same hold (and its
// Checkout page), with a manage token of its own besides the first,
// instead of refusing them.
func TestDoubleClickReusesTheHold(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		r := req("session-30", at(2026, time.January, 7, 10, 0), "ada@example.com")
		first := book(t, s, r)
		if _, err := s.AttachCheckout(ctx, first.Booking.ID, "cs_1", "https://checkout.stripe.com/c/pay/cs_1", ""); err != nil {
			t.Fatal(err)
		}
		again := book(t, s, r)
		if !again.Reused || again.Booking.ID != first.Booking.ID || again.Booking.CheckoutURL != "https://checkout.stripe.com/c/pay/cs_1" {
			t.Fatalf("second press: %+v", again)
		}
		if _, err := s.FindByToken(ctx, first.Booking.ID, again.Token); err != nil {
			t.Fatalf("the new token: %v", err)
		}
		// The first press's Checkout Session returns to its own link, so the
		// first token keeps opening the booking.
		if _, err := s.FindByToken(ctx, first.Booking.ID, first.Token); err != nil {
			t.Fatalf("the first token, which the Checkout success URL carries: %v", err)
		}
	})
}

func Example_bookingStatuses() {
	fmt.Println(StatusHeld, StatusRequested, StatusConfirmed, StatusCancelled, StatusExpired, StatusDeclined, StatusCompleted, StatusNoShow)
	// Output: held requested confirmed cancelled expired declined completed no_show
}
