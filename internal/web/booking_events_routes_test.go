package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	ical "github.com/arran4/golang-ical"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// scheduleGroup schedules a group training date days ahead as the admin.
func (m *testSite) scheduleGroup(admin testUser, days, seats int) map[string]any {
	m.t.Helper()
	start := time.Now().UTC().Truncate(time.Hour).AddDate(0, 0, days)
	r := m.call(admin, "POST", "/api/admin/booking/events", map[string]any{"type": "group", "start": start.Format(time.RFC3339), "seats": seats})
	if r.status != 201 {
		m.t.Fatalf("schedule: %d %s", r.status, r.body)
	}
	return r.json["event"].(map[string]any)
}

func seatBody(eventID, email string) map[string]string {
	return map[string]string{"type": "group", "event_id": eventID, "name": "Grace Hopper", "email": email, "time_zone": "Europe/Paris"}
}

// A seat goes through the same hold, Checkout and webhook path as a call:
// the visitor sees the date with its seats left, pays, is confirmed with an
// invitation of their own; the last seat taken answers 409 sold_out to the
// next buyer, and the owner sees the attendee.
func TestSeatBoughtThroughCheckoutAndTheNextBuyerIsToldSoldOut(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		admin := m.user(membersAdminEmail)
		ev := m.scheduleGroup(admin, 10, 1)
		id := ev["id"].(string)
		list := m.call(testUser{}, "GET", "/api/booking/events?type=group", nil)
		events := list.json["events"].([]any)
		if list.status != 200 || len(events) != 1 || events[0].(map[string]any)["seats_left"] != float64(1) {
			t.Fatalf("events: %d %s", list.status, list.body)
		}
		r := m.call(testUser{}, "POST", "/api/bookings", seatBody(id, "grace@example.com"))
		if r.status != 201 || r.json["checkout_url"] == nil {
			t.Fatalf("seat: %d %s", r.status, r.body)
		}
		b := r.json["booking"].(map[string]any)
		bid, tok := b["id"].(string), r.json["token"].(string)
		if b["status"] != "held" || b["event_id"] != id || b["price_text"] != "$500" {
			t.Fatalf("seat %v", b)
		}
		var sid string
		var p url.Values
		for k, v := range fake.Sessions() {
			sid, p = k, v
		}
		if p.Get("metadata[booking_id]") != bid || p.Get("line_items[0][price_data][unit_amount]") != "50000" {
			t.Fatalf("Checkout Session %v", p)
		}
		sold := m.call(testUser{}, "POST", "/api/bookings", seatBody(id, "alan@example.com"))
		if sold.status != 409 || sold.errCode() != "sold_out" {
			t.Fatalf("next buyer: %d %s", sold.status, sold.body)
		}
		paid := billingtest.Event("evt_seat", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, bid, "pi_grace", "paid", 50000, "usd"))
		if r := m.signed(paid); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		got := m.call(testUser{}, "GET", "/api/bookings/"+bid+"?token="+tok, nil).json["booking"].(map[string]any)
		if got["status"] != "confirmed" || got["paid"] != true || got["can_change"] != true {
			t.Fatalf("after payment %v", got)
		}
		conf := m.mailsTo("grace@example.com", "Confirmed:")
		if len(conf) != 1 || !strings.Contains(conf[0].text, "cancel your seat online") {
			t.Fatalf("confirmation %+v", conf)
		}
		// Read back by an independent parser: this attendee's own UID for this date.
		method, inv := invitation(t, conf[0])
		if method != "REQUEST" || prop(inv, ical.ComponentPropertyUniqueId) != "booking-"+bid+"@ruv.example" ||
			!strings.Contains(strings.ToLower(prop(inv, ical.ComponentPropertyAttendee)), "grace@example.com") {
			t.Fatalf("invitation %s: UID %q, attendee %q", method, prop(inv, ical.ComponentPropertyUniqueId), prop(inv, ical.ComponentPropertyAttendee))
		}
		moved := m.call(testUser{}, "POST", "/api/bookings/"+bid+"/reschedule?token="+tok, map[string]string{"start": time.Now().AddDate(0, 0, 20).Format(time.RFC3339)})
		if moved.status != 409 {
			t.Fatalf("moving a seat: %d %s", moved.status, moved.body)
		}
		att := m.call(admin, "GET", "/api/admin/booking/events/"+id+"/attendees", nil)
		if att.status != 200 || len(att.json["attendees"].([]any)) != 1 || !strings.Contains(att.body, "grace@example.com") {
			t.Fatalf("attendees: %d %s", att.status, att.body)
		}
		msg := m.call(admin, "POST", "/api/admin/booking/events/"+id+"/message", map[string]string{"subject": "Room change", "body": "We meet in room B."})
		if msg.status != 200 || msg.json["sent"] != float64(1) || len(m.mailsTo("grace@example.com", "Room change")) != 1 {
			t.Fatalf("message: %d %s", msg.status, msg.body)
		}
		bad := m.call(admin, "POST", "/api/admin/booking/events", map[string]any{"type": "group", "start": "soon"})
		if bad.status != 400 || bad.errField() != "start" {
			t.Fatalf("bad schedule: %d %s", bad.status, bad.body)
		}
	})
}

// The enterprise form: stored and seen by the admin, each bad field named,
// and a flood from one address stopped with 429 and Retry-After.
func TestEnterpriseInquiryRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		body := func(i int) map[string]any {
			return map[string]any{"name": "Grace", "email": fmt.Sprintf("grace%d@fleet.example", i), "company": "Fleet",
				"team_size": 25, "message": "Training for the desk.", "preferred_start": ""}
		}
		r := m.call(testUser{}, "POST", "/api/inquiries", body(0))
		if r.status != 201 || r.json["id"] == nil || strings.Contains(r.body, "status") {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		bad := body(1)
		bad["team_size"] = "twenty"
		if r := m.call(testUser{}, "POST", "/api/inquiries", bad); r.status != 400 {
			t.Fatalf("team size as text: %d %s", r.status, r.body)
		}
		bad["team_size"] = -3
		if r := m.call(testUser{}, "POST", "/api/inquiries", bad); r.status != 400 || r.errField() != "team_size" {
			t.Fatalf("negative team: %d %s", r.status, r.body)
		}
		list := m.call(admin, "GET", "/api/admin/inquiries", nil)
		if list.status != 200 || len(list.json["inquiries"].([]any)) != 1 || !strings.Contains(list.body, `"status":"new"`) {
			t.Fatalf("list: %d %s", list.status, list.body)
		}
		id := list.json["inquiries"].([]any)[0].(map[string]any)["id"].(string)
		p := m.call(admin, "PATCH", "/api/admin/inquiries", map[string]string{"id": id, "status": "won", "note": "Signed for Q3."})
		if p.status != 200 || !strings.Contains(p.body, `"status":"won"`) || !strings.Contains(p.body, "Signed for Q3.") {
			t.Fatalf("patch: %d %s", p.status, p.body)
		}
		if len(m.mailsTo("grace0@fleet.example", "We received")) != 1 || len(m.mailsTo(membersAdminEmail, "Enterprise inquiry")) != 1 {
			t.Fatalf("mails %+v", m.outbox())
		}
		limited := false
		for i := range 12 {
			r := m.call(testUser{}, "POST", "/api/inquiries", body(10+i))
			if r.status == 429 {
				limited = r.header.Get("Retry-After") != ""
				break
			}
		}
		if !limited {
			t.Fatal("a flood of inquiries from one address was never refused with 429 and Retry-After")
		}
	})
}
