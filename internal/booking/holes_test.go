package booking

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// The holes found attacking the booking flow, one test each (issue 29).

// mondayHours makes the owner's week one Monday from 09:00 to 17:00
// Toronto time, on a 30-minute step with no buffers or notice: eight
// hours, sixteen half-hour calls.
func mondayHours(t *testing.T, s *Service, maxPerDay int) {
	t.Helper()
	st := s.defaults
	st.TimeZone = "America/Toronto"
	st.WeeklyHours = map[string][]content.HourRange{"monday": {{Start: "09:00", End: "17:00"}}}
	st.SlotStep, st.BufferBefore, st.BufferAfter, st.MinNotice, st.MaxPerDay = 30, 0, 0, 0, maxPerDay
	if _, err := s.SaveSettings(context.Background(), st); err != nil {
		t.Fatal(err)
	}
}

// A stranger who sends the same type, start and e-mail as someone's hold
// used to get that hold back with a manage token of their own. Now only
// the browser that made the hold does; anyone else is told the time is
// taken, exactly as for a time someone else holds, and gets no token.
func TestStrangerRepeatingSomeonesHoldGetsNoToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		start := at(2026, time.January, 7, 10, 0)
		victim := req("session-30", start, "ada@example.com")
		first := book(t, s, victim)
		tokens := count(t, db, `SELECT COUNT(*) FROM booking_tokens`)

		taken := req("session-30", start, "someone-else@example.com")
		taken.HoldKey, taken.ClientAddr = "attacker-browser-secret-0123456789", "198.51.100.7"
		_, errTaken := s.Book(ctx, taken)
		for _, key := range []string{"attacker-browser-secret-0123456789", ""} {
			r := victim
			r.HoldKey, r.ClientAddr = key, "198.51.100.7"
			c, err := s.Book(ctx, r)
			wantCode(t, err, errs.SlotTaken)
			if c != nil || err.Error() != errTaken.Error() {
				t.Fatalf("stranger (key %q): %+v %v; a taken time says %v", key, c, err, errTaken)
			}
		}
		if got := count(t, db, `SELECT COUNT(*) FROM booking_tokens`); got != tokens {
			t.Fatalf("%d tokens issued to strangers", got-tokens)
		}
		// Paid: the same answer, no hint that this address booked it.
		if _, _, err := s.ConfirmPaid(ctx, Payment{BookingID: first.Booking.ID, CheckoutSessionID: "cs_1", PaymentIntentID: "pi_1",
			Amount: first.Booking.Amount, Currency: first.Booking.Currency}); err != nil {
			t.Fatal(err)
		}
		r := victim
		r.HoldKey = "attacker-browser-secret-0123456789"
		_, err := s.Book(ctx, r)
		if errs.CodeOf(err) != errs.SlotTaken || err.Error() != errTaken.Error() {
			t.Fatalf("stranger on a paid booking: %v", err)
		}
		// The booker's own browser still gets its hold back on a second press.
		mine := book(t, s, req("session-30", at(2026, time.January, 7, 11, 0), "bo@example.com"))
		again := book(t, s, req("session-30", at(2026, time.January, 7, 11, 0), "bo@example.com"))
		if !again.Reused || again.Booking.ID != mine.Booking.ID {
			t.Fatalf("the same browser's second press: %+v", again)
		}
	})
}

// A seat: a stranger typing an attendee's address is told the date is
// full, not that the address has a seat, and gets no token.
func TestStrangerRepeatingSomeonesSeatGetsNoToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		book(t, s, seatReq(e, "grace@example.com"))
		r := seatReq(e, "grace@example.com")
		r.HoldKey = "attacker-browser-secret-0123456789"
		c, err := s.Book(context.Background(), r)
		wantCode(t, err, errs.SoldOut)
		if c != nil {
			t.Fatalf("stranger got %+v", c)
		}
	})
}

// One IPv6 /64 made 164 holds in four seconds: the open-hold limit counted
// each full address. Addresses of one /64 are one client now.
func TestHoldSquattingFromOneIPv6SlashSixtyFour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		var err error
		n := 0
		for ; n < 20 && err == nil; n++ {
			r := req("session-15", weekday(n, 9, 0), email(n))
			r.ClientAddr = fmt.Sprintf("2001:db8:7:9::%x", n+1)
			_, err = s.Book(context.Background(), r)
		}
		wantCode(t, err, errs.RateLimited)
		if n-1 != MaxOpenPerClient {
			t.Fatalf("%d holds from one /64, want %d", n-1, MaxOpenPerClient)
		}
		// The next /64 is another client.
		r := req("session-15", weekday(12, 9, 0), email(99))
		r.ClientAddr = "2001:db8:7:a::1"
		book(t, s, r)
	})
}

// Many IPv4 addresses, each with its own e-mail address, hold one day:
// unpaid holds stop at half of the owner's time that day, so the other
// half stays bookable by someone who pays at once.
func TestHoldSquattingFromManyIPv4sLeavesHalfTheDay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		mondayHours(t, s, 0)
		day := at(2026, time.January, 12, 9, 0)
		won := 0
		for i := range 16 {
			r := req("session-30", day.Add(time.Duration(i)*30*time.Minute), email(i))
			r.ClientAddr = fmt.Sprintf("203.0.113.%d", i+1)
			if _, err := s.Book(context.Background(), r); err == nil {
				won++
			} else {
				wantCode(t, err, errs.SlotTaken)
			}
		}
		if won != 8 {
			t.Fatalf("%d half-hour holds on an eight-hour day, want 8", won)
		}
		if free := slotsOn(t, s, "session-30", "2026-01-12", "America/Toronto"); len(free) != 8 {
			t.Fatalf("%d times still offered, want 8", len(free))
		}
		// Payments off, or a free call, is not a hold: the ceiling is for
		// unpaid holds only. Another day is not touched.
		r := req("session-30", at(2026, time.January, 19, 9, 0), email(50))
		r.ClientAddr = "203.0.113.50"
		book(t, s, r)
	})
}

// A hold that lapses is not renewed for ever by holding the same time
// again: one e-mail address (or one client) may start only a few unpaid
// holds a day.
func TestHoldRenewalIsLimitedPerEmailAndClient(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		start := at(2026, time.January, 14, 10, 0)
		r := req("session-30", start, "squatter@example.com")
		for i := range MaxHoldStartsPerEmail {
			r.ClientAddr = fmt.Sprintf("198.51.100.%d", i+1)
			book(t, s, r)
			clock.Advance(HoldTTL + time.Minute)
		}
		r.ClientAddr = "198.51.100.200"
		_, err := s.Book(context.Background(), r)
		wantCode(t, err, errs.RateLimited)
		if e := err.(*errs.Error); e.RetryAfter <= 0 || e.RetryAfter > HoldStartWindow {
			t.Fatalf("Retry-After %v", e.RetryAfter)
		}
		// One client with many addresses of its own.
		for i := range MaxHoldStartsPerClient {
			r := req("session-30", start, email(i))
			r.ClientAddr = "192.0.2.1"
			book(t, s, r)
			clock.Advance(HoldTTL + time.Minute)
		}
		r = req("session-30", start, email(100))
		r.ClientAddr = "192.0.2.1"
		_, err = s.Book(context.Background(), r)
		wantCode(t, err, errs.RateLimited)
		// A day later the address may hold again.
		clock.Advance(HoldStartWindow)
		r.Start = at(2026, time.January, 15, 10, 0).Format(time.RFC3339)
		book(t, s, r)
	})
}

// The ceiling on a day's unpaid holds is exact under parallel presses on
// both engines: forty visitors from forty addresses at once get at most
// half of the day.
func TestHoldCeilingHoldsUnderParallelRequests(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		mondayHours(t, s, 0)
		day := at(2026, time.January, 12, 9, 0)
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			won int
		)
		for i := range 40 {
			wg.Go(func() {
				r := req("session-30", day.Add(time.Duration(i%16)*30*time.Minute), email(i))
				r.ClientAddr = fmt.Sprintf("203.0.113.%d", i+1)
				_, err := s.Book(context.Background(), r)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case errs.CodeOf(err) != errs.SlotTaken:
					t.Errorf("visitor %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if held := count(t, db, `SELECT COUNT(*) FROM bookings WHERE status = 'held'`); won != 8 || held != 8 {
			t.Fatalf("%d holds won, %d held rows, want 8 of the 16 half hours", won, held)
		}
	})
}

// All fifty seats of a date were held by one network. Unpaid holds now
// take at most half of a date's seats; paid seats are not limited.
func TestSeatHoldsTakeAtMostHalfTheSeats(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		won := 0
		for i := range 10 {
			r := seatReq(e, email(i))
			r.ClientAddr = fmt.Sprintf("203.0.113.%d", i+1)
			if _, err := s.Book(context.Background(), r); err == nil {
				won++
			} else {
				wantCode(t, err, errs.SoldOut)
			}
		}
		if won != 5 {
			t.Fatalf("%d unpaid seats of 10, want 5", won)
		}
		if left, err := s.Event(context.Background(), e.ID); err != nil || left.SeatsLeft != 5 {
			t.Fatalf("seats left %+v %v", left, err)
		}
	})
}

// latePay pays b after its hold lapsed.
func latePay(t *testing.T, s *Service, b *Booking) (*Booking, *Refund) {
	t.Helper()
	got, refund, err := s.ConfirmPaid(context.Background(), Payment{BookingID: b.ID, CheckoutSessionID: "cs_" + b.ID,
		PaymentIntentID: "pi_" + b.ID, Amount: b.Amount, Currency: b.Currency})
	if err != nil {
		t.Fatal(err)
	}
	return got, refund
}

// A payment after the hold lapsed re-took the time through the overlap
// rule alone: on top of a group date scheduled meanwhile, past the daily
// maximum, over the owner's calendar. It now runs a new booking's checks,
// and refunds when one fails.
func TestLatePaymentRetakeRunsEveryCheck(t *testing.T) {
	cases := []struct {
		name string
		// meanwhile takes the time in another way while the hold is lapsed.
		meanwhile func(t *testing.T, s *Service, db *store.DB, start time.Time)
		maxPerDay int
	}{
		{name: "group date", meanwhile: func(t *testing.T, s *Service, _ *store.DB, start time.Time) {
			groupAt(t, s, start.Add(-30*time.Minute), 10)
		}},
		{name: "daily maximum", maxPerDay: 1, meanwhile: func(t *testing.T, s *Service, _ *store.DB, start time.Time) {
			r := req("session-30", start.Add(3*time.Hour), "other@example.com")
			r.ClientAddr = "192.0.2.77"
			book(t, s, r)
		}},
		{name: "calendar busy", meanwhile: func(t *testing.T, _ *Service, db *store.DB, start time.Time) {
			ctx := context.Background()
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO booking_calendars (id, url) VALUES ('c1', 'https://cal.example/owner.ics')`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO booking_busy (calendar_id, start_at, end_at) VALUES ('c1', $1, $2)`,
				store.At(start.Add(10*time.Minute)), store.At(start.Add(20*time.Minute))); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				s, clock := newService(t, db, true)
				mondayHours(t, s, tc.maxPerDay)
				start := at(2026, time.January, 12, 11, 0)
				held := book(t, s, req("session-30", start, "late@example.com")).Booking
				clock.Advance(HoldTTL + time.Minute)
				if _, err := s.SweepExpired(context.Background()); err != nil {
					t.Fatal(err)
				}
				tc.meanwhile(t, s, db, start)
				b, refund := latePay(t, s, held)
				if b.Status != StatusExpired || refund == nil || refund.Amount != held.Amount {
					t.Fatalf("late payment over a %s: %s, refund %+v", tc.name, b.Status, refund)
				}
			})
		})
	}
	// Nothing in the way: the late payment still takes its time.
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		mondayHours(t, s, 1)
		held := book(t, s, req("session-30", at(2026, time.January, 12, 11, 0), "late@example.com")).Booking
		clock.Advance(HoldTTL + time.Minute)
		if b, refund := latePay(t, s, held); b.Status != StatusConfirmed || refund != nil {
			t.Fatalf("late payment on a free time: %s, refund %+v", b.Status, refund)
		}
	})
}

// The owner is told when holds pile up: OpenHolds counts live holds only.
func TestOpenHoldsCountsLiveHolds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		for i := range 3 {
			book(t, s, req("session-15", weekday(i, 9, 0), email(i)))
		}
		if n, err := s.OpenHolds(context.Background()); err != nil || n != 3 {
			t.Fatalf("open holds %d %v, want 3", n, err)
		}
		clock.Advance(HoldTTL)
		if n, err := s.OpenHolds(context.Background()); err != nil || n != 0 {
			t.Fatalf("open holds after they lapsed %d %v, want 0", n, err)
		}
	})
}

// A free call is confirmed to any address typed in the form at once, and
// its confirmation quoted the notes (in the mail and in the invitation):
// a relay of a stranger's words. The booker's mail quotes none now; the
// owner's copy keeps them.
func TestFreeCallConfirmationQuotesNoNotes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := New(db, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"}, WithClock(func() time.Time { return monday }))
		s.types[0].Price = 0
		s.byID[s.types[0].ID] = s.types[0]
		r := req(s.types[0].ID, at(2026, time.January, 7, 10, 0), "victim@example.com")
		r.Notes = "Your parcel is held: pay the fee at https://phish.example"
		c := book(t, s, r)
		if c.Booking.Status != StatusConfirmed {
			t.Fatalf("free call %s", c.Booking.Status)
		}
		var text, files string
		if err := db.Read.QueryRow(`SELECT text_body, attachments FROM mail_outbox WHERE to_addr = 'victim@example.com'`).Scan(&text, &files); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "phish") || strings.Contains(files, "phish") || strings.Contains(files, "cGhpc2") {
			t.Fatalf("the booker's confirmation quotes the notes:\n%s", text)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'owner@example.com' AND text_body LIKE '%phish%'`); n != 1 {
			t.Fatalf("the owner's copy lost the notes: %d", n)
		}
	})
}

// [::127.0.0.1] and [2002:7f00:1::] passed the calendar address check:
// IPv6 forms that carry a loopback or private IPv4 address (compatible,
// mapped, translated, 6to4, Teredo) are refused like the address itself;
// a 6to4 form of a public address stays allowed.
func TestIPv6FormsOfPrivateAddressesFailTheCalendarCheck(t *testing.T) {
	strict := &calendarConfig{}
	for _, host := range []string{"[::127.0.0.1]", "[::ffff:127.0.0.1]", "[2002:7f00:1::]", "[2002:a00:1::1]", "[2002:c0a8:101::]",
		"[::10.0.0.1]", "[::ffff:0:a9fe:a9fe]", "[::ffff:169.254.169.254]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[::]"} {
		if _, err := strict.normalizeCalendarURL("https://" + host + "/x.ics"); errs.CodeOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want refused", host, err)
		}
	}
	if _, err := strict.normalizeCalendarURL("https://[2002:808:808::1]/x.ics"); err != nil {
		t.Errorf("6to4 of a public address refused: %v", err)
	}
}
