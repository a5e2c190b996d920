package booking

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// setRoom saves the owner's room address.
func setRoom(t *testing.T, s *Service, address string) Settings {
	t.Helper()
	ctx := context.Background()
	st, _ := s.LoadSettings(ctx)
	st.MeetingLink = address
	st, err := s.SaveSettings(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// bodyTo is the text of the latest queued mail to addr whose subject
// starts with prefix, whitespace folded.
func bodyTo(t *testing.T, db *store.DB, addr, prefix string) string {
	t.Helper()
	var body string
	err := db.Read.QueryRowContext(context.Background(), `SELECT text_body FROM mail_outbox
		WHERE to_addr = $1 AND subject LIKE $2 ORDER BY created_at DESC, id DESC LIMIT 1`, addr, prefix+"%").Scan(&body)
	if err != nil {
		t.Fatalf("mail to %s %q: %v", addr, prefix, err)
	}
	return strings.Join(strings.Fields(body), " ")
}

var jitsiRoom = regexp.MustCompile(`^https://meet\.jit\.si/ruv-[a-z2-7]{26}$`)

// With no room saved, a paid call had no way to join. A template gives each
// confirmed booking its own unguessable room: two bookings get two rooms, a
// move keeps the one already in the invitation, and the room is the
// invitation's LOCATION and URL and in the confirmation and the reminder.
func TestRoomTemplateGivesEachBookingItsOwnRoomThatSurvivesAMove(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		st := setRoom(t, s, "https://meet.jit.si/ruv-{room}")
		var rooms []string
		var first *Booking
		var token string
		for i, day := range []int{7, 8} {
			c := book(t, s, req("session-30", at(2026, time.January, day, 10, 0), email(i)))
			clock.Advance(time.Second) // the change is seen by its time
			b, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs" + email(i), PaymentIntentID: "pi" + email(i), Amount: 29900, Currency: "USD"})
			if err != nil {
				t.Fatal(err)
			}
			if !jitsiRoom.MatchString(b.MeetingLink) {
				t.Fatalf("room %q is not the template filled with a 26-character value", b.MeetingLink)
			}
			rooms = append(rooms, b.MeetingLink)
			if i == 0 {
				first, token = b, c.Token
			}
		}
		if rooms[0] == rooms[1] {
			t.Fatalf("two bookings share the room %s", rooms[0])
		}
		if text := bodyTo(t, db, email(0), "Confirmed:"); !strings.Contains(text, "Join the call here: "+rooms[0]) {
			t.Fatalf("confirmation lacks the room:\n%s", text)
		}
		if text := bodyTo(t, db, "owner@example.com", "Booked: Ada Lovelace"); !strings.Contains(text, "Room: https://meet.jit.si/ruv-") {
			t.Fatalf("owner's notice lacks the room:\n%s", text)
		}

		moved, err := s.Reschedule(ctx, first.ID, token, at(2026, time.January, 9, 11, 0).Format(time.RFC3339))
		if err != nil {
			t.Fatal(err)
		}
		if moved.MeetingLink != rooms[0] {
			t.Fatalf("the move changed the room from %s to %s", rooms[0], moved.MeetingLink)
		}
		inv := parse(t, s.Invitation(moved, st, MethodRequest, ""))
		if ics.FromText(inv.prop(t, ics.ComponentPropertyLocation)) != rooms[0] || inv.prop(t, ics.ComponentPropertyUrl) != rooms[0] {
			t.Fatalf("LOCATION %q URL %q, want %s", inv.prop(t, ics.ComponentPropertyLocation), inv.prop(t, ics.ComponentPropertyUrl), rooms[0])
		}

		clock.Set(moved.Start.Add(-time.Hour))
		if _, err := s.PlanReminders(ctx); err != nil {
			t.Fatal(err)
		}
		if text := bodyTo(t, db, email(0), "Reminder:"); !strings.Contains(text, "Join the call here: "+rooms[0]) {
			t.Fatalf("reminder lacks the room:\n%s", text)
		}
	})
}

// The seats of one group training date meet in one room, and another date
// gets another.
func TestSeatsOfOneDateShareOneRoom(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		setRoom(t, s, "https://meet.jit.si/ruv-{room}")
		one := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		two := groupAt(t, s, at(2026, time.January, 21, 10, 0), 10)
		links := map[string][]string{}
		for i, e := range []*Event{one, one, one, two} {
			c := book(t, s, seatReq(e, email(i)))
			clock.Advance(time.Second)
			b, err := s.ConfirmRequest(ctx, c.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			links[e.ID] = append(links[e.ID], b.MeetingLink)
		}
		a, b := links[one.ID], links[two.ID]
		if !jitsiRoom.MatchString(a[0]) || a[0] != a[1] || a[1] != a[2] {
			t.Fatalf("seats of one date: %v, want one room", a)
		}
		if b[0] == a[0] || !jitsiRoom.MatchString(b[0]) {
			t.Fatalf("another date got %s beside %s", b[0], a[0])
		}
	})
}

// One fixed link (a personal room) goes to every booking as it is, and no
// warning shows in Admin.
func TestFixedRoomLinkGoesToEveryBooking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		st := setRoom(t, s, "https://zoom.us/j/123456789?pwd=abc")
		if st.RoomWarning() != "" {
			t.Fatalf("warning with a room set: %s", st.RoomWarning())
		}
		for i := range 2 {
			c := book(t, s, req("session-30", at(2026, time.January, 7+i, 10, 0), email(i)))
			clock.Advance(time.Second)
			b, err := s.ConfirmRequest(ctx, c.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			if b.MeetingLink != st.MeetingLink {
				t.Fatalf("room %q, want the fixed link", b.MeetingLink)
			}
		}
	})
}

// With no room configured (the default) nothing promises a link: Admin
// warns the owner, and the confirmation, the reminder and the invitation
// say the owner sends it; the owner is told to.
func TestWithoutARoomMailsSayTheOwnerSendsTheLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		st, _ := s.LoadSettings(ctx)
		if st.MeetingLink != "" || !strings.Contains(st.RoomWarning(), "No room address is set") {
			t.Fatalf("default room %q, warning %q", st.MeetingLink, st.RoomWarning())
		}
		c := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "ada@example.com"))
		clock.Advance(time.Second)
		b, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs", PaymentIntentID: "pi", Amount: 29900, Currency: "USD"})
		if err != nil {
			t.Fatal(err)
		}
		if b.MeetingLink != "" {
			t.Fatalf("room %q with none configured", b.MeetingLink)
		}
		want := "The link to join will be sent by " + st.OwnerName + " before the call."
		text := bodyTo(t, db, "ada@example.com", "Confirmed:")
		if !strings.Contains(text, want) || strings.Contains(text, "Join the call") {
			t.Fatalf("confirmation without a room:\n%s", text)
		}
		if text := bodyTo(t, db, "owner@example.com", "Booked:"); !strings.Contains(text, "send Ada Lovelace the link to join yourself") {
			t.Fatalf("owner's notice without a room:\n%s", text)
		}
		desc := ics.FromText(parse(t, s.Invitation(b, st, MethodRequest, "")).prop(t, ics.ComponentPropertyDescription))
		if !strings.Contains(desc, want) {
			t.Fatalf("invitation without a room:\n%s", desc)
		}
		clock.Set(b.Start.Add(-time.Hour))
		if _, err := s.PlanReminders(ctx); err != nil {
			t.Fatal(err)
		}
		if text := bodyTo(t, db, "ada@example.com", "Reminder:"); !strings.Contains(text, want) || strings.Contains(text, "Join the call") {
			t.Fatalf("reminder without a room:\n%s", text)
		}
	})
}

// A room address that would send bookers somewhere unencrypted, relative,
// with two rooms or a misspelt placeholder is refused with a sentence
// saying why, and nothing is saved.
func TestRoomAddressRule(t *testing.T) {
	for _, tc := range []struct {
		address, says string
	}{
		{"http://meet.jit.si/ruv-{room}", "https://"},
		{"meet.jit.si/ruv-{room}", "full address"},
		{"/rooms/{room}", "full address"},
		{"https://meet.jit.si/{room}-{room}", "at most once"},
		{"https://meet.jit.si/{Room}", "Only {room}"},
		{"https://meet.jit.si/{id}", "Only {room}"},
		{"https://meet.jit.si/a b", "spaces"},
		{"https://user:pw@meet.jit.si/{room}", "user name"},
		{"https://meet.jit.si/" + strings.Repeat("a", 500), "at most 500"},
		{"javascript:alert(1)", "full address"},
	} {
		err := checkRoomAddress(tc.address)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: %v, want a refusal saying %q", tc.address, err, tc.says)
		}
	}
	for _, ok := range []string{"", "https://meet.jit.si/ruv-{room}", "https://zoom.us/j/123?pwd=x", "https://{room}.whereby.com/"} {
		if err := checkRoomAddress(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

// Settings saved before the https rule (an http:// meeting link) still
// open the calendar rather than falling back to the defaults.
func TestStoredHTTPMeetingLinkStillReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, false)
		_, err := db.Write.ExecContext(ctx, `INSERT INTO booking_settings (id, settings, updated_at) VALUES (1, $1, $2)`,
			`{"time_zone":"Europe/Paris","weekly_hours":{},"overrides":[],"slot_step_minutes":15,"buffer_before_minutes":10,"buffer_after_minutes":10,"minimum_notice_minutes":720,"window_days":60,"max_per_day":0,"cutoff_minutes":1440,"owner_name":"rUv","owner_email":"owner@example.com","meeting_link":"http://meet.example/ruv"}`,
			store.At(monday))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := s.LoadSettings(ctx)
		if st.TimeZone != "Europe/Paris" || st.MeetingLink != "http://meet.example/ruv" {
			t.Fatalf("read back %s %s", st.TimeZone, st.MeetingLink)
		}
		_, err = s.SaveSettings(ctx, st)
		wantField(t, err, "meeting_link")
	})
}

// The manage page shows the room from JoinEarly before the start until
// the end, and not before or after.
func TestRoomOpensFifteenMinutesBeforeTheStart(t *testing.T) {
	b := &Booking{Start: monday, End: monday.Add(30 * time.Minute)}
	for _, c := range []struct {
		at   time.Time
		open bool
	}{
		{monday.Add(-16 * time.Minute), false}, {monday.Add(-15 * time.Minute), true}, {monday.Add(29 * time.Minute), true}, {monday.Add(30 * time.Minute), false},
	} {
		if RoomOpen(b, c.at) != c.open {
			t.Errorf("at %v open = %v", c.at.Sub(monday), !c.open)
		}
	}
}

// A booking made less than 24 hours ahead got no brief: its 24-hour
// reminder is skipped, and the brief went only with that. It now goes on
// the first planning after the confirmation, once.
func TestBriefGoesWithTheConfirmationOfABookingMadeLessThan24HoursAhead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		start := at(2026, time.January, 7, 10, 0)
		clock.Set(start.Add(-20 * time.Hour))
		st, _ := s.LoadSettings(ctx)
		st.MinNotice = 60
		if _, err := s.SaveSettings(ctx, st); err != nil {
			t.Fatal(err)
		}
		c := book(t, s, req("session-30", start, "ada@example.com"))
		clock.Advance(time.Second)
		if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := s.PlanReminders(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'booking-brief-%'`); n != 1 {
			t.Fatalf("%d briefs queued, want 1", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'booking-reminder-%'`); n != 0 {
			t.Fatalf("%d reminders queued 20 hours ahead, want none yet", n)
		}
		if text := bodyTo(t, db, "owner@example.com", "Brief:"); !strings.Contains(text, "What they wrote when booking") {
			t.Fatalf("brief:\n%s", text)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE subject = 'Brief: Deep Dive with Ada Lovelace tomorrow'`); n != 1 {
			t.Fatalf("brief's subject does not name its day")
		}
		clock.Set(start.Add(-time.Hour))
		if _, err := s.PlanReminders(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'booking-brief-%'`); n != 1 {
			t.Fatalf("%d briefs after the 1-hour reminder, want 1", n)
		}
	})
}

// A seat cannot move: its confirmation offered "reschedule" and its footer
// said the address "booked a call".
func TestSeatConfirmationOffersNoRescheduleAndSaysSeat(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 10)
		c := book(t, s, seatReq(e, "grace@example.com"))
		clock.Advance(time.Second)
		if _, err := s.ConfirmRequest(ctx, c.Booking.ID); err != nil {
			t.Fatal(err)
		}
		if text := bodyTo(t, db, "grace@example.com", "Request received:"); strings.Contains(text, "asked for a call") || !strings.Contains(text, "asked for a seat") {
			t.Fatalf("seat request:\n%s", text)
		}
		text := bodyTo(t, db, "grace@example.com", "Confirmed:")
		if strings.Contains(strings.ToLower(text), "reschedule") || strings.Contains(text, "booked a call") ||
			!strings.Contains(text, "View or cancel your seat") || !strings.Contains(text, "booked a seat") {
			t.Fatalf("seat confirmation:\n%s", text)
		}
	})
}

// Seats of one date confirmed at the same moment still share one room.
func TestSeatsConfirmedAtOnceShareOneRoom(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		setRoom(t, s, "https://meet.jit.si/ruv-{room}")
		e := groupAt(t, s, at(2026, time.January, 14, 10, 0), 20)
		var ids []string
		for i := range 8 {
			ids = append(ids, book(t, s, seatReq(e, email(i))).Booking.ID)
		}
		clock.Advance(time.Second)
		links := make([]string, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() {
				b, err := s.ConfirmRequest(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				links[i] = b.MeetingLink
			})
		}
		wg.Wait()
		for _, l := range links {
			if l != links[0] || !jitsiRoom.MatchString(l) {
				t.Fatalf("rooms of seats confirmed at once: %v", links)
			}
		}
	})
}
