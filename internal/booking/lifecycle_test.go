package booking

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// Bad input is refused with the field it is about, and nothing is written.
func TestBadBookingsNameTheFieldAndWriteNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		good := req("session-30", at(2026, time.January, 7, 10, 0), "ada@example.com")
		for _, tc := range []struct {
			name, field string
			change      func(r *Request)
		}{
			{"unknown type", "type", func(r *Request) { r.Type = "session-45" }},
			{"type booked elsewhere", "type", func(r *Request) { r.Type = "enterprise" }},
			{"start not a time", "start", func(r *Request) { r.Start = "tomorrow at ten" }},
			{"start without offset", "start", func(r *Request) { r.Start = "2026-01-07T10:00:00" }},
			{"start in the past", "start", func(r *Request) { r.Start = "2026-01-02T10:00:00-05:00" }},
			{"start inside the notice", "start", func(r *Request) { r.Start = "2026-01-05T15:45:00-05:00" }},
			{"start beyond the window", "start", func(r *Request) { r.Start = "2026-03-10T10:00:00-05:00" }},
			{"start off the grid", "start", func(r *Request) { r.Start = "2026-01-07T10:05:00-05:00" }},
			{"start outside the hours", "start", func(r *Request) { r.Start = "2026-01-07T16:45:00-05:00" }},
			{"start on a weekend", "start", func(r *Request) { r.Start = "2026-01-10T10:00:00-05:00" }},
			{"blank name", "name", func(r *Request) { r.Name = "  " }},
			{"name with a control character", "name", func(r *Request) { r.Name = "Ada\x07" }},
			{"long name", "name", func(r *Request) { r.Name = strings.Repeat("a", 121) }},
			{"bad e-mail", "email", func(r *Request) { r.Email = "ada@" }},
			{"e-mail with a display name", "email", func(r *Request) { r.Email = "Ada <ada@example.com>" }},
			{"e-mail without a dotted domain", "email", func(r *Request) { r.Email = "ada@localhost" }},
			{"notes too long", "notes", func(r *Request) { r.Notes = strings.Repeat("é", MaxNotes+1) }},
			{"notes with NUL", "notes", func(r *Request) { r.Notes = "a\x00b" }},
			{"bad zone", "time_zone", func(r *Request) { r.TimeZone = "Europe/Atlantis" }},
		} {
			r := good
			tc.change(&r)
			_, err := s.Book(context.Background(), r)
			if errs.CodeOf(err) != errs.Invalid || !strings.Contains(err.(*errs.Error).Field, tc.field) {
				t.Errorf("%s: %v, want invalid %s", tc.name, err, tc.field)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM bookings`); n != 0 {
			t.Fatalf("%d rows written by refused bookings", n)
		}
		// 2,000 characters of notes are fine.
		good.Notes = strings.Repeat("é", MaxNotes)
		book(t, s, good)
	})
}

// Payments off: a paid type becomes a request the owner confirms or
// declines; a free type is confirmed at once.
func TestRequestsAndFreeCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, false)
		st, _ := s.LoadSettings(ctx)
		st.MeetingLink = "https://meet.example/ruv"
		if _, err := s.SaveSettings(ctx, st); err != nil {
			t.Fatal(err)
		}
		r := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "ada@example.com")).Booking
		if r.Status != StatusRequested || r.ExpiresAt != nil || r.MeetingLink != "" || r.Amount != 29900 {
			t.Fatalf("request %+v", r)
		}
		c, err := s.ConfirmRequest(ctx, r.ID)
		if err != nil || c.Status != StatusConfirmed || c.MeetingLink != "https://meet.example/ruv" {
			t.Fatalf("confirmed %+v, %v", c, err)
		}
		_, err = s.Decline(ctx, r.ID)
		wantCode(t, err, errs.Conflict)

		d := book(t, s, req("session-30", at(2026, time.January, 7, 13, 0), "bob@example.com")).Booking
		if d, err = s.Decline(ctx, d.ID); err != nil || d.Status != StatusDeclined {
			t.Fatalf("declined %+v, %v", d, err)
		}
		book(t, s, req("session-30", at(2026, time.January, 7, 13, 0), "carol@example.com")) // the time is free again

		free := New(db, Config{Site: site, OwnerEmail: "owner@example.com"}, WithClock(s.now))
		free.types[0].Price = 0
		free.byID[free.types[0].ID] = free.types[0]
		f := book(t, free, req(free.types[0].ID, at(2026, time.January, 8, 9, 0), "dan@example.com")).Booking
		if f.Status != StatusConfirmed || f.Amount != 0 || f.MeetingLink != "https://meet.example/ruv" {
			t.Fatalf("free call %+v", f)
		}
	})
}

// A manage link opens its booking and nothing else; a wrong, foreign or
// stale token and an unknown id all get the same not_found.
func TestManageTokenOpensOnlyItsBooking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		a := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "a@example.com"))
		b := book(t, s, req("session-30", at(2026, time.January, 7, 13, 0), "b@example.com"))
		if got, err := s.FindByToken(ctx, a.Booking.ID, a.Token); err != nil || got.ID != a.Booking.ID {
			t.Fatalf("own token: %v", err)
		}
		if len(a.Token) != 43 || count(t, db, `SELECT COUNT(*) FROM bookings WHERE token_hash = $1`, a.Token) != 0 {
			t.Fatal("the token must be 43 URL-safe characters and stored only as a hash")
		}
		var msgs []string
		for _, tc := range [][2]string{
			{a.Booking.ID, b.Token}, {a.Booking.ID, a.Token + "x"}, {a.Booking.ID, ""}, {store.NewID(), a.Token},
		} {
			_, err := s.FindByToken(ctx, tc[0], tc[1])
			wantCode(t, err, errs.NotFound)
			msgs = append(msgs, err.Error())
		}
		for _, m := range msgs[1:] {
			if m != msgs[0] {
				t.Fatalf("not-found messages differ: %q", msgs)
			}
		}
		clock.Set(a.Booking.End.Add(TokenLife))
		_, err := s.FindByToken(ctx, a.Booking.ID, a.Token)
		wantCode(t, err, errs.NotFound)
	})
}

// Reschedule: to a free time, before the cut-off, at most twice, never onto
// a taken time; each move of a confirmed booking raises its sequence.
func TestRescheduleRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		c := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "a@example.com"))
		b, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs_a", PaymentIntentID: "pi_a", Amount: 29900, Currency: "USD"})
		if err != nil || b.ICSSequence != 0 {
			t.Fatal(err)
		}
		other := book(t, s, req("session-60", at(2026, time.January, 8, 10, 0), "b@example.com")).Booking
		move := func(start time.Time) (*Booking, error) {
			return s.Reschedule(ctx, c.Booking.ID, c.Token, start.Format(time.RFC3339))
		}
		_, err = move(at(2026, time.January, 8, 10, 30))
		wantCode(t, err, errs.SlotTaken)
		_, err = move(at(2026, time.January, 8, 10, 7))
		wantField(t, err, "start")
		_, err = s.Reschedule(ctx, c.Booking.ID, "wrong", at(2026, time.January, 9, 10, 0).Format(time.RFC3339))
		wantCode(t, err, errs.NotFound)

		b, err = move(at(2026, time.January, 9, 10, 0))
		if err != nil || b.RescheduleCount != 1 || b.ICSSequence != 1 || !b.Start.Equal(at(2026, time.January, 9, 10, 0)) ||
			b.End.Sub(b.Start) != 30*time.Minute {
			t.Fatalf("first move %+v, %v", b, err)
		}
		if !contains(slotsOn(t, s, "session-30", "2026-01-07", "America/Toronto"), "2026-01-07T10:00:00-05:00") {
			t.Fatal("the old time is not offered again")
		}
		// Moving next to itself: its own old time does not block it.
		if b, err = move(at(2026, time.January, 9, 10, 15)); err != nil || b.ICSSequence != 2 {
			t.Fatalf("second move %+v, %v", b, err)
		}
		_, err = move(at(2026, time.January, 12, 10, 0))
		wantCode(t, err, errs.Conflict)

		// A fresh booking close to its time cannot move.
		late := book(t, s, req("session-15", at(2026, time.January, 13, 9, 0), "c@example.com"))
		if _, _, err := s.ConfirmPaid(ctx, Payment{BookingID: late.Booking.ID, CheckoutSessionID: "cs_c", PaymentIntentID: "pi_c", Amount: 14900, Currency: "USD"}); err != nil {
			t.Fatal(err)
		}
		clock.Set(at(2026, time.January, 12, 9, 30)) // 23.5 hours before
		_, err = s.Reschedule(ctx, late.Booking.ID, late.Token, at(2026, time.January, 14, 9, 0).Format(time.RFC3339))
		wantCode(t, err, errs.Conflict)
		if !strings.Contains(err.Error(), "owner@example.com") {
			t.Fatalf("the refusal should say how to reach the owner: %v", err)
		}
		_ = other
	})
}

// Cancel: the booker before the cut-off, the owner at any time; both
// return everything paid as the refund to make, and free the time.
func TestCancelReturnsTheRefundAndFreesTheTime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		paid := func(start time.Time, email string) *Created {
			c := book(t, s, req("session-60", start, email))
			if _, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs_" + email,
				PaymentIntentID: "pi_" + email, Amount: 49900, Currency: "USD"}); err != nil {
				t.Fatal(err)
			}
			return c
		}
		a := paid(at(2026, time.January, 7, 10, 0), "a@example.com")
		_, _, err := s.CancelByBooker(ctx, a.Booking.ID, "not-the-token")
		wantCode(t, err, errs.NotFound)
		b, refund, err := s.CancelByBooker(ctx, a.Booking.ID, a.Token)
		if err != nil || b.Status != StatusCancelled || b.CancelledBy != "booker" || b.ICSSequence != 1 ||
			refund == nil || refund.Amount != 49900 || refund.PaymentIntentID != "pi_a@example.com" {
			t.Fatalf("booker cancel %+v, refund %+v, %v", b, refund, err)
		}
		_, _, err = s.CancelByBooker(ctx, a.Booking.ID, a.Token)
		wantCode(t, err, errs.Conflict)
		book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "z@example.com"))

		late := paid(at(2026, time.January, 8, 10, 0), "late@example.com")
		clock.Set(at(2026, time.January, 7, 12, 0))
		_, _, err = s.CancelByBooker(ctx, late.Booking.ID, late.Token)
		wantCode(t, err, errs.Conflict)
		b, refund, err = s.CancelByOwner(ctx, late.Booking.ID)
		if err != nil || b.CancelledBy != "owner" || refund == nil || refund.Amount != 49900 {
			t.Fatalf("owner cancel %+v, refund %+v, %v", b, refund, err)
		}
		// An unpaid hold cancelled by the owner owes nothing.
		h := book(t, s, req("session-15", at(2026, time.January, 9, 9, 0), "h@example.com"))
		if _, refund, err = s.CancelByOwner(ctx, h.Booking.ID); err != nil || refund != nil {
			t.Fatalf("unpaid hold: refund %+v, %v", refund, err)
		}
	})
}

// Completed and no-show apply to confirmed calls that have started.
func TestCompleteAndNoShowAfterTheStart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		a := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "a@example.com")).Booking
		_, err := s.Complete(ctx, a.ID)
		wantCode(t, err, errs.Conflict) // a request
		if _, err := s.ConfirmRequest(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		_, err = s.NoShow(ctx, a.ID)
		wantCode(t, err, errs.Conflict) // not started
		clock.Set(at(2026, time.January, 7, 10, 5))
		if b, err := s.NoShow(ctx, a.ID); err != nil || b.Status != StatusNoShow {
			t.Fatalf("no-show %+v, %v", b, err)
		}
		_, err = s.Complete(ctx, a.ID)
		wantCode(t, err, errs.Conflict)
	})
}

// The owner's list and this month's money: gross paid, refunded and net,
// in cents.
func TestAdminListAndMonthRevenue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		var ids []string
		for i, typ := range []string{"session-15", "session-30", "session-60"} {
			c := book(t, s, req(typ, at(2026, time.January, 7, 9, 0).Add(time.Duration(i)*2*time.Hour), email(i)))
			if _, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs" + c.Booking.ID,
				PaymentIntentID: "pi" + c.Booking.ID, Amount: c.Booking.Amount, Currency: "USD"}); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.Booking.ID)
		}
		held := book(t, s, req("session-15", at(2026, time.January, 8, 9, 0), email(9))).Booking
		_, refund, err := s.CancelByOwner(ctx, ids[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordRefund(ctx, ids[1], "re_x", refund.Amount); err != nil {
			t.Fatal(err)
		}
		up, err := s.List(ctx, Filter{})
		if err != nil || len(up) != 3 || up[0].ID != ids[0] || up[1].ID != ids[2] || up[2].ID != held.ID {
			t.Fatalf("upcoming %v, %v", up, err)
		}
		gone, _ := s.List(ctx, Filter{Scope: ScopeCancelled})
		if len(gone) != 1 || gone[0].ID != ids[1] || gone[0].Refunded != 29900 {
			t.Fatalf("cancelled %+v", gone)
		}
		if only, _ := s.List(ctx, Filter{Type: "session-60"}); len(only) != 1 || only[0].ID != ids[2] {
			t.Fatalf("by type %+v", only)
		}
		clock.Set(at(2026, time.January, 8, 0, 0))
		past, _ := s.List(ctx, Filter{Scope: ScopePast})
		if len(past) != 2 {
			t.Fatalf("past %+v", past)
		}
		_, err = s.List(ctx, Filter{Scope: "soon"})
		wantField(t, err, "scope")

		rev, err := s.MonthRevenue(ctx, "2026-01")
		want := Revenue{Currency: "USD", Gross: 14900 + 29900 + 49900, Refunded: 29900, Net: 14900 + 49900}
		if err != nil || len(rev) != 1 || rev[0] != want {
			t.Fatalf("January %+v, want %+v (%v)", rev, want, err)
		}
		if rev, _ := s.MonthRevenue(ctx, "2026-02"); len(rev) != 0 {
			t.Fatalf("February %+v", rev)
		}
		_, err = s.MonthRevenue(ctx, "2026-1")
		wantField(t, err, "month")
	})
}

func TestMinutesText(t *testing.T) {
	for m, want := range map[int]string{1: "1 minute", 45: "45 minutes", 60: "1 hour", 720: "12 hours", 1440: "1 day", 2880: "2 days", 90: "90 minutes"} {
		if got := minutesText(m); got != want {
			t.Errorf("minutesText(%d) = %q, want %q", m, got, want)
		}
	}
}

// A refund Stripe refused once (its answer is kept under the idempotency
// key) stayed refused after the owner refunded part of it in the dashboard:
// the same key came back with another amount. The key follows what was
// refunded so far, so a retry in one state is the same request and a new
// state is a new one.
func TestRefundKeyFollowsWhatWasRefunded(t *testing.T) {
	paid := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	b := &Booking{ID: "bk_1", PaymentIntentID: "pi_1", Amount: 29900, Currency: "USD", PaidAt: &paid}
	first, again := refundDue(b), refundDue(b)
	if first.Amount != 29900 || first.IdempotencyKey != again.IdempotencyKey {
		t.Fatalf("a retry is not the same refund: %+v / %+v", first, again)
	}
	b.Refunded = 10000 // refunded in the dashboard meanwhile
	after := refundDue(b)
	if after.Amount != 19900 || after.IdempotencyKey == first.IdempotencyKey {
		t.Fatalf("after a partial refund: %+v (first %+v)", after, first)
	}
	b.Refunded = 29900
	if r := refundDue(b); r != nil {
		t.Fatalf("nothing is owed once all was refunded: %+v", r)
	}
}
