package booking

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"tribe/internal/ical"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// parsed is an invitation read back by an independent iCalendar parser.
type parsed struct {
	method string
	ev     *ics.VEvent
}

func parse(t *testing.T, raw []byte) parsed {
	t.Helper()
	for i, line := range bytes.Split(bytes.TrimSuffix(raw, []byte("\r\n")), []byte("\r\n")) {
		if len(line) > 75 || bytes.ContainsAny(line, "\r\n") {
			t.Fatalf("line %d is not a folded content line (%d octets): %q", i+1, len(line), line)
		}
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse invitation: %v\n%s", err, raw)
	}
	var p parsed
	for _, prop := range cal.CalendarProperties {
		if prop.IANAToken == "METHOD" {
			p.method = prop.Value
		}
	}
	evs := cal.Events()
	if len(evs) != 1 {
		t.Fatalf("%d events in %s", len(evs), raw)
	}
	p.ev = evs[0]
	return p
}

func (p parsed) prop(t *testing.T, name ics.ComponentProperty) string {
	t.Helper()
	v := p.ev.GetProperty(name)
	if v == nil {
		t.Fatalf("no %s", name)
	}
	return v.Value
}

// Invitations calendars honour (Cal.com #29706): REQUEST with a stable UID
// and sequence 0 on confirmation, the same UID with sequence 1 after a
// move, and CANCEL with STATUS:CANCELLED and a higher sequence, so the event
// leaves the guest's calendar. Organizer the owner, attendee the booker,
// times in UTC, long and awkward text folded and escaped.
func TestInvitationsParseAndFollowITIP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		st, _ := s.LoadSettings(ctx)
		st.OwnerName = "Reuven Cohen; rUv"
		st.MeetingLink = "https://meet.example/ruv?room=1,2"
		if _, err := s.SaveSettings(ctx, st); err != nil {
			t.Fatal(err)
		}
		notes := "Agents, memory; evaluation \\ tooling.\nSecond line: naïve café 🚀 " + strings.Repeat("long text ", 30)
		r := req("session-30", at(2026, time.January, 7, 10, 0), "ada@example.com")
		r.Name, r.Notes = "Lovelace, Ada", notes
		c := book(t, s, r)
		b, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs", PaymentIntentID: "pi", Amount: 29900, Currency: "USD"})
		if err != nil {
			t.Fatal(err)
		}
		manage := "https://ruv.example/bookings/" + b.ID + "?token=" + c.Token

		first := parse(t, s.Invitation(b, st, MethodRequest, manage))
		uid := first.prop(t, ics.ComponentPropertyUniqueId)
		if first.method != "REQUEST" || uid != "booking-"+b.ID+"@ruv.example" || first.prop(t, ics.ComponentPropertySequence) != "0" ||
			first.prop(t, ics.ComponentPropertyStatus) != "CONFIRMED" {
			t.Fatalf("confirmation: method %s uid %s", first.method, uid)
		}
		if start, err := first.ev.GetStartAt(); err != nil || !start.Equal(b.Start) || start.Location() != time.UTC {
			t.Fatalf("DTSTART %v, want %v in UTC (%v)", start, b.Start, err)
		}
		if end, err := first.ev.GetEndAt(); err != nil || !end.Equal(b.Start.Add(30*time.Minute)) {
			t.Fatalf("DTEND %v (%v)", end, err)
		}
		org := first.ev.GetProperty(ics.ComponentPropertyOrganizer)
		if org.Value != "mailto:owner@example.com" || org.ICalParameters["CN"][0] != "Reuven Cohen; rUv" {
			t.Fatalf("organizer %+v", org.BaseProperty)
		}
		att := first.ev.Attendees()
		if len(att) != 1 || att[0].Email() != "ada@example.com" || att[0].ICalParameters["CN"][0] != "Lovelace, Ada" {
			t.Fatalf("attendee %+v", att)
		}
		desc := ics.FromText(first.prop(t, ics.ComponentPropertyDescription))
		if !strings.Contains(desc, strings.TrimSpace(notes)) || !strings.Contains(desc, st.MeetingLink) || !strings.Contains(desc, manage) {
			t.Fatalf("description does not read back whole:\n%s", desc)
		}
		if ics.FromText(first.prop(t, ics.ComponentPropertyLocation)) != st.MeetingLink {
			t.Fatalf("location %q", first.prop(t, ics.ComponentPropertyLocation))
		}

		moved, err := s.Reschedule(ctx, b.ID, c.Token, at(2026, time.January, 8, 11, 0).Format(time.RFC3339))
		if err != nil {
			t.Fatal(err)
		}
		second := parse(t, s.Invitation(moved, st, MethodRequest, manage))
		if second.method != "REQUEST" || second.prop(t, ics.ComponentPropertyUniqueId) != uid || second.prop(t, ics.ComponentPropertySequence) != "1" {
			t.Fatal("a move must keep the UID and raise the sequence to 1")
		}
		if start, _ := second.ev.GetStartAt(); !start.Equal(at(2026, time.January, 8, 11, 0)) {
			t.Fatalf("moved DTSTART %v", start)
		}

		gone, _, err := s.CancelByBooker(ctx, b.ID, c.Token)
		if err != nil {
			t.Fatal(err)
		}
		third := parse(t, s.Invitation(gone, st, MethodCancel, ""))
		if third.method != "CANCEL" || third.prop(t, ics.ComponentPropertyUniqueId) != uid ||
			third.prop(t, ics.ComponentPropertySequence) != "2" || third.prop(t, ics.ComponentPropertyStatus) != "CANCELLED" {
			t.Fatalf("cancellation:\n%s", s.Invitation(gone, st, MethodCancel, ""))
		}
		if third.ev.GetProperty(ics.ComponentPropertyOrganizer) == nil || len(third.ev.Attendees()) != 1 {
			t.Fatal("a CANCEL names the organizer and the attendee (RFC 5546 3.2.5)")
		}
		if bytes.Contains(s.Invitation(gone, st, MethodCancel, ""), []byte("meet.example")) {
			t.Fatal("a cancellation does not carry the meeting room")
		}
	})
}

// A parameter value cannot hold a double quote, so a name such as
// Ada "Countess" Lovelace lost its quotes in CN. RFC 6868 writes them as
// ^' (and a caret as ^^, a line break as ^n), which clients decode: read
// back, both names are as given.
func TestInvitationKeepsDoubleQuotesInNamesByRFC6868(t *testing.T) {
	s := New(nil, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"})
	st := s.defaults
	st.OwnerName = `Reuven "rUv" Cohen`
	b := &Booking{ID: "b1", Type: "session-30", Name: `Ada "Countess" Lovelace^2`, Email: "ada@example.com",
		Start: time.Date(2026, 1, 7, 15, 0, 0, 0, time.UTC), End: time.Date(2026, 1, 7, 15, 30, 0, 0, time.UTC)}
	raw := s.Invitation(b, st, MethodRequest, "")
	if !bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n "), nil), []byte(`CN=Ada ^'Countess^' Lovelace^^2`)) {
		t.Fatalf("attendee CN not in RFC 6868 form:\n%s", raw)
	}
	cal, _, err := ical.Read(raw, ical.Limits{MaxDepth: 4, MaxComponents: 10})
	if err != nil || len(cal.Components) != 1 {
		t.Fatalf("read back: %v", err)
	}
	ev := cal.Components[0]
	if got := ev.Prop("ATTENDEE").Param("CN"); got != b.Name {
		t.Errorf("attendee CN read back %q, want %q", got, b.Name)
	}
	if got := ev.Prop("ORGANIZER").Param("CN"); got != st.OwnerName {
		t.Errorf("organizer CN read back %q, want %q", got, st.OwnerName)
	}
}
