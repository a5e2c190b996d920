package booking

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// groupAt schedules a group training occurrence with seats.
func groupAt(t testing.TB, s *Service, start time.Time, seats int) *Event {
	t.Helper()
	e, err := s.ScheduleEvent(context.Background(), EventInput{Type: "group", Start: start.Format(time.RFC3339), Seats: seats})
	if err != nil {
		t.Fatalf("schedule group at %s: %v", start, err)
	}
	return e
}

func seatReq(e *Event, mail string) Request {
	return Request{Type: "group", EventID: e.ID, Name: "Grace Hopper", Email: mail, TimeZone: "Europe/Paris",
		ClientAddr: "client-" + mail, HoldKey: "browser-of-" + mail}
}

// Sixty visitors press Buy on the last three seats at once: exactly three
// holds, 57 sold_out, on both engines. Without the database counting the
// seats, every request that read "3 left" before the others wrote would
// get one, and the training would be oversold.
func TestLastSeatsRaceNeverOversells(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		for i := range 7 { // seven seats are bought before the rush
			b := book(t, s, seatReq(e, email(1000+i))).Booking
			if _, _, err := s.ConfirmPaid(context.Background(), Payment{BookingID: b.ID, CheckoutSessionID: "cs_" + b.ID,
				PaymentIntentID: "pi_" + b.ID, Amount: b.Amount, Currency: b.Currency}); err != nil {
				t.Fatal(err)
			}
		}
		const n = 60
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			won   int
			codes = map[string]int{}
		)
		for i := range n {
			wg.Go(func() {
				_, err := s.Book(context.Background(), seatReq(e, email(i)))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won++
					return
				}
				codes[errs.CodeOf(err)]++
				if errs.CodeOf(err) != errs.SoldOut {
					t.Errorf("buyer %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if won != 3 || codes[errs.SoldOut] != n-3 {
			t.Fatalf("%d holds and %v refusals, want 3 holds and %d sold_out", won, codes, n-3)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM bookings WHERE event_id = $1 AND status IN ('held', 'confirmed')`, e.ID); got != 10 {
			t.Fatalf("%d seats taken, want 10", got)
		}
		left, err := s.Event(context.Background(), e.ID)
		if err != nil || left.SeatsLeft != 0 {
			t.Fatalf("seats left %+v, %v", left, err)
		}
	})
}

// A hold that lapses unpaid gives its seat back: the next buyer gets it.
func TestExpiredSeatHoldGivesItsSeatBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clk := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 1)
		book(t, s, seatReq(e, email(1)))
		_, err := s.Book(context.Background(), seatReq(e, email(2)))
		wantCode(t, err, errs.SoldOut)
		if ev, _ := s.Event(context.Background(), e.ID); ev.SeatsLeft != 0 {
			t.Fatalf("seats left %d while held", ev.SeatsLeft)
		}
		clk.Advance(HoldTTL + time.Second)
		// The list shows the seat free before any write marks the hold.
		list, err := s.Events(context.Background(), "group")
		if err != nil || len(list) != 1 || list[0].SeatsLeft != 1 {
			t.Fatalf("events after the hold lapsed: %+v, %v", list, err)
		}
		c := book(t, s, seatReq(e, email(2)))
		if c.Booking.Status != StatusHeld || c.Booking.EventID != e.ID {
			t.Fatalf("second buyer %+v", c.Booking)
		}
	})
}

// A paid seat whose hold lapsed while someone else took the last seat is
// not confirmed past the seats: it is refunded, and the occurrence stays
// at its size.
func TestLatePaymentForASoldOutSeatIsRefunded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clk := newService(t, db, true)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 1)
		first := book(t, s, seatReq(e, email(1)))
		clk.Advance(HoldTTL + time.Second)
		book(t, s, seatReq(e, email(2)))
		b, refund, err := s.ConfirmPaid(context.Background(), Payment{BookingID: first.Booking.ID, CheckoutSessionID: "cs_late",
			PaymentIntentID: "pi_late", Amount: first.Booking.Amount, Currency: first.Booking.Currency})
		if err != nil {
			t.Fatal(err)
		}
		if b.Status == StatusConfirmed || refund == nil || refund.Amount != first.Booking.Amount {
			t.Fatalf("late seat %s, refund %+v", b.Status, refund)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM bookings WHERE event_id = $1 AND status IN ('held', 'confirmed')`, e.ID); got != 1 {
			t.Fatalf("%d seats count, want 1", got)
		}
	})
}

// The occurrence is the owner's busy time: no one-to-one slot meets it,
// and a one-to-one booking into it is refused even when asked directly.
func TestGroupTrainingBlocksOneToOneSlots(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		start := at(2026, time.January, 14, 10, 0)
		before := slotsOn(t, s, "session-30", "2026-01-14", "America/Toronto")
		if !contains(before, start.Format(time.RFC3339)) {
			t.Fatalf("10:00 not offered before scheduling: %v", before)
		}
		groupAt(t, s, start, 50)
		after := slotsOn(t, s, "session-30", "2026-01-14", "America/Toronto")
		for _, v := range after {
			ts, _ := time.Parse(time.RFC3339, v)
			// 10:00 to 12:00 with 10-minute buffers either side of both.
			if ts.Add(40*time.Minute).After(start) && ts.Before(start.Add(130*time.Minute)) {
				t.Fatalf("slot %s meets the group training", v)
			}
		}
		if len(after) == 0 || len(after) >= len(before) {
			t.Fatalf("%d slots before, %d after", len(before), len(after))
		}
		_, err := s.Book(context.Background(), req("session-30", start.Add(30*time.Minute), email(1)))
		wantCode(t, err, errs.SlotTaken)
		// And the other way: an occurrence cannot be put on a booked call.
		book(t, s, req("session-60", at(2026, time.January, 15, 10, 0), email(2)))
		_, err = s.ScheduleEvent(context.Background(), EventInput{Type: "group", Start: at(2026, time.January, 15, 9, 0).Format(time.RFC3339)})
		wantField(t, err, "start")
	})
}

// Each seat holder gets their own invitation (one UID per occurrence and
// attendee), and the owner's message reaches every attendee through the
// outbox.
func TestSeatHoldersGetTheirOwnInvitationAndTheOwnersMessage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 50)
		var uids []string
		for i := range 2 {
			c := book(t, s, seatReq(e, email(i)))
			if c.Booking.Status != StatusRequested {
				t.Fatalf("seat %s with payments off", c.Booking.Status)
			}
			b, err := s.ConfirmRequest(ctx, c.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := s.LoadSettings(ctx)
			ics := string(s.Invitation(b, st, MethodRequest, ""))
			for _, line := range strings.Split(ics, "\r\n") {
				if uid, ok := strings.CutPrefix(line, "UID:"); ok {
					uids = append(uids, uid)
				}
			}
		}
		if len(uids) != 2 || uids[0] == uids[1] {
			t.Fatalf("UIDs %v, want two different", uids)
		}
		list, err := s.Attendees(ctx, e.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("attendees %d, %v", len(list), err)
		}
		before := count(t, db, `SELECT COUNT(*) FROM mail_outbox`)
		n, err := s.MessageAttendees(ctx, e.ID, EventMessage{Subject: "Bring your API keys", Body: "Please install Node 22 before we start."})
		if err != nil || n != 2 {
			t.Fatalf("messaged %d, %v", n, err)
		}
		if got := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject = 'Bring your API keys'`); got != 2 || count(t, db, `SELECT COUNT(*) FROM mail_outbox`) != before+2 {
			t.Fatalf("%d messages queued", got)
		}
		_, err = s.MessageAttendees(ctx, e.ID, EventMessage{Subject: "", Body: "x"})
		wantField(t, err, "subject")
	})
}

// Cancelling an occurrence cancels every seat with its refund due and
// closes it to new seats; a seat cannot be moved to another time.
func TestCancelledOccurrenceCancelsSeatsAndTakesNoMore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 50)
		c := book(t, s, seatReq(e, email(1)))
		_, err := s.Reschedule(ctx, c.Booking.ID, c.Token, at(2026, time.January, 15, 10, 0).Format(time.RFC3339))
		wantCode(t, err, errs.Conflict)
		got, _, err := s.CancelEvent(ctx, e.ID)
		if err != nil || got.Status != EventStatusCancelled {
			t.Fatalf("cancel: %+v, %v", got, err)
		}
		b, _ := s.Get(ctx, c.Booking.ID)
		if b.Status != StatusCancelled || b.CancelledBy != "owner" {
			t.Fatalf("seat after cancelling the date: %s by %q", b.Status, b.CancelledBy)
		}
		_, err = s.Book(ctx, seatReq(e, email(2)))
		wantField(t, err, "event_id")
		// The time is the owner's again.
		if !contains(slotsOn(t, s, "session-30", "2026-01-14", "America/Toronto"), at(2026, time.January, 14, 10, 0).Format(time.RFC3339)) {
			t.Fatal("the cancelled date still blocks one-to-one slots")
		}
	})
}

// Bad input for seats: a clear field error, nothing written.
func TestSeatRequestsRefuseBadInputWithTheField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 5)
		r := seatReq(e, email(1))
		r.EventID = ""
		_, err := s.Book(ctx, r)
		wantField(t, err, "event_id")
		r.EventID = "nope"
		_, err = s.Book(ctx, r)
		wantField(t, err, "event_id")
		one := req("session-30", at(2026, time.January, 14, 14, 0), email(2))
		one.EventID = e.ID
		_, err = s.Book(ctx, one)
		wantField(t, err, "event_id")
		_, err = s.Slots(ctx, "group", "2026-01-14", "2026-01-14", "UTC")
		wantField(t, err, "type")
		_, err = s.ScheduleEvent(ctx, EventInput{Type: "session-30", Start: at(2026, time.January, 16, 10, 0).Format(time.RFC3339)})
		wantField(t, err, "type")
		_, err = s.ScheduleEvent(ctx, EventInput{Type: "group", Start: at(2026, time.January, 16, 10, 0).Format(time.RFC3339), Seats: 5000})
		wantField(t, err, "seats")
		_, err = s.ScheduleEvent(ctx, EventInput{Type: "group", Start: at(2026, time.January, 1, 10, 0).Format(time.RFC3339)})
		wantField(t, err, "start")
		if got := count(t, db, `SELECT COUNT(*) FROM bookings`); got != 0 {
			t.Fatalf("%d bookings written by refused requests", got)
		}
		if _, err := s.SetEventSeats(ctx, e.ID, 3); err != nil {
			t.Fatal(err)
		}
		book(t, s, seatReq(e, email(3)))
		_, err = s.SetEventSeats(ctx, e.ID, 0)
		wantField(t, err, "seats")
	})
}

// Every seat holder gets their reminders, but the owner of a 50-seat date
// gets one reminder for the date, not one per seat; a cancelled date sends
// none.
func TestSeatRemindersReachEachHolderAndTheOwnerOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clk := newService(t, db, false)
		ctx := context.Background()
		start := at(2026, time.January, 14, 10, 0)
		e := groupAt(t, s, start, 50)
		for i := range 3 {
			c := book(t, s, seatReq(e, email(i)))
			if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
				t.Fatal(err)
			}
		}
		other := groupAt(t, s, at(2026, time.January, 14, 15, 0), 50)
		c := book(t, s, seatReq(other, email(9)))
		if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.CancelEvent(ctx, other.ID); err != nil {
			t.Fatal(err)
		}
		clk.Set(start.Add(-23 * time.Hour))
		for range 2 { // a second run, or a second instance, adds nothing
			if _, err := s.PlanReminders(ctx); err != nil {
				t.Fatal(err)
			}
		}
		holders := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE 'Reminder: your Group Training%'`)
		owner := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'owner@example.com' AND subject LIKE 'Reminder:%'`)
		if holders != 3 || owner != 1 {
			t.Fatalf("%d holder reminders (want 3) and %d owner reminders (want 1)", holders, owner)
		}
	})
}

// The owner moves a date: its seats move with it in one change, each
// attendee gets the new time (a confirmed seat with the calendar update and
// the next sequence), the owner only the update of their own copy of each
// confirmed seat's invitation, the old time is free
// for one-to-one calls again and the new one is not. A move onto another
// date, to the same start, into the past or of a cancelled date is refused
// and changes nothing.
func TestMovedDateTakesEverySeatAlongAndTellsEachAttendee(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		from, to := at(2026, time.January, 14, 10, 0), at(2026, time.January, 15, 10, 0)
		e := groupAt(t, s, from, 50)
		other := groupAt(t, s, at(2026, time.January, 16, 10, 0), 50)
		confirmed := book(t, s, seatReq(e, email(1)))
		if _, err := s.ConfirmRequest(ctx, confirmed.Booking.ID); err != nil {
			t.Fatal(err)
		}
		requested := book(t, s, seatReq(e, email(2)))
		seqBefore := func() int { b, _ := s.Get(ctx, confirmed.Booking.ID); return b.ICSSequence }()
		mailsBefore := count(t, db, `SELECT COUNT(*) FROM mail_outbox`)

		_, err := s.MoveEvent(ctx, e.ID, other.Start.Format(time.RFC3339), 0)
		wantField(t, err, "start")
		_, err = s.MoveEvent(ctx, e.ID, from.Format(time.RFC3339), 0)
		wantField(t, err, "start")
		_, err = s.MoveEvent(ctx, e.ID, monday.Add(-time.Hour).Format(time.RFC3339), 0)
		wantField(t, err, "start")
		if got, _ := s.Event(ctx, e.ID); !got.Start.Equal(from) {
			t.Fatalf("a refused move changed the date to %s", got.Start)
		}

		moved, err := s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 0)
		if err != nil || !moved.Start.Equal(to) || moved.End.Sub(moved.Start) != e.End.Sub(e.Start) || moved.SeatsLeft != 48 {
			t.Fatalf("moved: %+v, %v", moved, err)
		}
		for _, id := range []string{confirmed.Booking.ID, requested.Booking.ID} {
			b, _ := s.Get(ctx, id)
			if !b.Start.Equal(to) || !b.End.Equal(moved.End) {
				t.Fatalf("seat %s still at %s", b.Status, b.Start)
			}
		}
		if b, _ := s.Get(ctx, confirmed.Booking.ID); b.ICSSequence != seqBefore+1 {
			t.Fatalf("confirmed seat's sequence %d, want %d", b.ICSSequence, seqBefore+1)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE 'New date: Group Training%'`); n != 2 {
			t.Fatalf("%d new-date mails, want one per attendee", n)
		}
		// The attendees' mails, and the owner's calendar update of the
		// confirmed seat (TestMovedDateUpdatesTheOwnersCopyOfEachConfirmedSeat).
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox`); n != mailsBefore+3 {
			t.Fatalf("%d mails queued by the move, want 3", n-mailsBefore)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE 'New date:%' AND to_addr = $1
			AND attachments LIKE '%invite.ics%'`, email(1)); n != 1 {
			t.Fatalf("the confirmed attendee's mail has no calendar update (%d)", n)
		}
		if !contains(slotsOn(t, s, "session-30", "2026-01-14", "America/Toronto"), from.Format(time.RFC3339)) {
			t.Fatal("the old time still blocks one-to-one slots")
		}
		if contains(slotsOn(t, s, "session-30", "2026-01-15", "America/Toronto"), to.Format(time.RFC3339)) {
			t.Fatal("the new time is offered for a one-to-one call")
		}

		// The length alone: the seats' end follows and the attendees hear again.
		_, err = s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 7)
		wantField(t, err, "duration")
		longer, err := s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 240)
		if err != nil || !longer.Start.Equal(to) || !longer.End.Equal(to.Add(4*time.Hour)) {
			t.Fatalf("longer: %+v, %v", longer, err)
		}
		if b, _ := s.Get(ctx, requested.Booking.ID); !b.End.Equal(longer.End) {
			t.Fatalf("seat ends %s, want %s", b.End, longer.End)
		}
		if b, _ := s.Get(ctx, confirmed.Booking.ID); b.ICSSequence != seqBefore+2 {
			t.Fatalf("confirmed seat's sequence %d after a new length, want %d", b.ICSSequence, seqBefore+2)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject LIKE 'New date: Group Training%'`); n != 4 {
			t.Fatalf("%d new-date mails after the new length, want 4", n)
		}
		// A length that runs into the other date: refused, nothing changed.
		_, err = s.MoveEvent(ctx, e.ID, at(2026, time.January, 16, 7, 0).Format(time.RFC3339), 240)
		wantField(t, err, "start")
		if got, _ := s.Event(ctx, e.ID); !got.End.Equal(longer.End) {
			t.Fatalf("a refused length changed the date to end %s", got.End)
		}

		if _, _, err := s.CancelEvent(ctx, other.ID); err != nil {
			t.Fatal(err)
		}
		_, err = s.MoveEvent(ctx, other.ID, at(2026, time.January, 20, 10, 0).Format(time.RFC3339), 0)
		wantCode(t, err, errs.Conflict)
	})
}

// The owner's calendar holds their own copy of each confirmed seat's
// invitation (mailed at confirmation with the same UID): when the owner
// moves the date and only the attendees get the REQUEST, the owner's own
// calendar keeps the seat at the old time. The owner gets the same REQUEST
// with the seat's next SEQUENCE (RFC 5546 3.2.2); a requested seat, which
// sent no invitation, gets none.
func TestMovedDateUpdatesTheOwnersCopyOfEachConfirmedSeat(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 50)
		confirmed := book(t, s, seatReq(e, email(1)))
		if _, err := s.ConfirmRequest(ctx, confirmed.Booking.ID); err != nil {
			t.Fatal(err)
		}
		book(t, s, seatReq(e, email(2)))
		to := at(2026, time.January, 15, 10, 0)
		if _, err := s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 0); err != nil {
			t.Fatal(err)
		}
		b, _ := s.Get(ctx, confirmed.Booking.ID)
		rows, err := db.ReadRows(ctx, `SELECT attachments FROM mail_outbox WHERE to_addr = 'owner@example.com' AND subject LIKE 'Calendar update:%'`)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for rows.Next() {
			var raw string
			if err := rows.Scan(&raw); err != nil {
				t.Fatal(err)
			}
			var atts []mail.Attachment
			if err := json.Unmarshal([]byte(raw), &atts); err != nil || len(atts) != 1 {
				t.Fatalf("attachments %s: %v", raw, err)
			}
			files = append(files, string(atts[0].Data))
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if len(files) != 1 {
			t.Fatalf("%d owner calendar updates, want 1 (the confirmed seat only)", len(files))
		}
		for _, want := range []string{"METHOD:REQUEST", "UID:booking-" + b.ID + "@", fmt.Sprintf("SEQUENCE:%d", b.ICSSequence),
			"DTSTART:" + to.UTC().Format("20060102T150405Z")} {
			if !strings.Contains(files[0], want) {
				t.Errorf("owner's update lacks %q:\n%s", want, files[0])
			}
		}
		if b.ICSSequence < 1 {
			t.Errorf("sequence %d after a move", b.ICSSequence)
		}
	})
}

// Visitors take seats while the owner moves the date: however the two
// interleave, every seat ends at the date's final time, none on the old
// one, on both engines.
func TestSeatsTakenDuringAMoveEndAtTheNewTime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 50)
		to := at(2026, time.January, 15, 10, 0)
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Go(func() {
				if _, err := s.Book(ctx, seatReq(e, email(i))); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			if _, err := s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 0); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
		got, err := s.Event(ctx, e.ID)
		if err != nil || !got.Start.Equal(to) || got.SeatsLeft != 50-12 {
			t.Fatalf("date after the move: %+v, %v", got, err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM bookings WHERE event_id = $1 AND (start_at <> $2 OR end_at <> $3)`,
			e.ID, store.At(got.Start), store.At(got.End)); n != 0 {
			t.Fatalf("%d seats left at another time than the date's", n)
		}
	})
}

// A date moved across the owner's change to summer time keeps its reading
// on the owner's clock where the owner put it: 10:00 in Toronto before
// (15:00 UTC) and after (14:00 UTC), and the attendee in Paris, whose
// clocks have not changed yet, reads the hour that really moved.
func TestMovedDateAcrossDaylightSavingReadsRightInBothZones(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.March, 6, 10, 0), 50) // Friday, before March 8
		c := book(t, s, seatReq(e, email(1)))
		if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
			t.Fatal(err)
		}
		to := at(2026, time.March, 9, 10, 0) // Monday, after
		if got := to.UTC().Format("15:04"); got != "14:00" {
			t.Fatalf("Toronto 10:00 on March 9 is %s UTC, want 14:00 (summer time)", got)
		}
		if _, err := s.MoveEvent(ctx, e.ID, to.Format(time.RFC3339), 0); err != nil {
			t.Fatal(err)
		}
		b, _ := s.Get(ctx, c.Booking.ID)
		if !b.Start.Equal(to) {
			t.Fatalf("seat starts %s, want %s", b.Start.UTC(), to.UTC())
		}
		var text string
		if err := db.Read.QueryRowContext(ctx, `SELECT text_body FROM mail_outbox WHERE subject LIKE 'New date:%'`).Scan(&text); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"New time: Monday, March 9, 2026, 3:00 PM (Europe/Paris); Monday, March 9, 2026, 10:00 AM (America/Toronto)",
			"It was Friday, March 6, 2026, 4:00 PM (Europe/Paris).",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the new-date mail lacks %q:\n%s", want, text)
			}
		}
	})
}

// The owner lowers a date's seats while visitors take them: whichever
// comes first, the date never ends with more seats taken than it has, on
// both engines.
func TestLoweringSeatsDuringSalesNeverOversells(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, false)
		ctx := context.Background()
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		for i := range 3 {
			book(t, s, seatReq(e, email(i)))
		}
		var wg sync.WaitGroup
		for i := 3; i < 9; i++ {
			wg.Go(func() {
				if _, err := s.Book(ctx, seatReq(e, email(i))); err != nil && !errs.Is(err, errs.SoldOut) {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			if _, err := s.SetEventSeats(ctx, e.ID, 4); err != nil && !errs.Is(err, errs.Invalid) {
				t.Error(err)
			}
		})
		wg.Wait()
		got, err := s.Event(ctx, e.ID)
		if err != nil || got.SeatsLeft < 0 {
			t.Fatalf("date after the race: %+v, %v", got, err)
		}
		taken := count(t, db, `SELECT COUNT(*) FROM bookings WHERE event_id = $1 AND status IN ('held', 'requested', 'confirmed')`, e.ID)
		if taken > got.Seats {
			t.Fatalf("%d seats taken of %d", taken, got.Seats)
		}
	})
}
