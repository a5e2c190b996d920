package booking

import (
	"strconv"
	"strings"

	"tribe/internal/ical"
)

// The iTIP methods (RFC 5546) an invitation uses.
const (
	MethodRequest = "REQUEST" // a new or moved booking
	MethodCancel  = "CANCEL"  // a cancelled booking
)

// Invitation is the calendar file mailed to the booker and the owner.
// REQUEST carries the booking as it is now; CANCEL withdraws it. Both use
// the booking's stable UID and its current sequence number, which
// confirmation sets to 0 and every reschedule and the cancellation raise, so
// a calendar applies them in order and drops the event on cancellation.
// manageURL, when given, is the booker's link to view, move or cancel.
func (s *Service) Invitation(b *Booking, st Settings, method, manageURL string) []byte {
	var w ical.Writer
	w.Line("BEGIN", "VCALENDAR")
	w.Line("VERSION", "2.0")
	w.Line("PRODID", "-//rUv//Tribe bookings//EN")
	w.Line("CALSCALE", "GREGORIAN")
	w.Line("METHOD", method)
	w.Line("BEGIN", "VEVENT")
	w.Line("UID", "booking-"+b.ID+"@"+ical.UIDDomain(s.baseURL))
	w.Line("SEQUENCE", strconv.Itoa(b.ICSSequence))
	w.Line("DTSTAMP", ical.UTC(s.now()))
	w.Line("DTSTART", ical.UTC(b.Start))
	w.Line("DTEND", ical.UTC(b.End))
	w.Line("SUMMARY", ical.Text(s.typeName(b.Type)+" with "+st.OwnerName))
	var desc []string
	if b.Notes != "" {
		desc = append(desc, "What to cover: "+b.Notes)
	}
	if method == MethodRequest && b.MeetingLink != "" {
		desc = append(desc, "Join: "+b.MeetingLink)
	} else if method == MethodRequest {
		desc = append(desc, noRoomLine(st.OwnerName))
	}
	if manageURL != "" && method == MethodRequest {
		desc = append(desc, "View, reschedule or cancel: "+manageURL)
	}
	if len(desc) > 0 {
		w.Line("DESCRIPTION", ical.Text(strings.Join(desc, "\n\n")))
	}
	if method == MethodRequest && b.MeetingLink != "" {
		w.Line("LOCATION", ical.Text(b.MeetingLink))
		w.Line("URL", b.MeetingLink)
	}
	w.LineParams("ORGANIZER", "CN="+ical.Param(st.OwnerName), ical.MailTo(st.OwnerEmail))
	partstat := "ACCEPTED"
	if method == MethodCancel {
		partstat = "DECLINED"
	}
	w.LineParams("ATTENDEE", "CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT="+partstat+";CN="+ical.Param(b.Name),
		ical.MailTo(b.Email))
	if method == MethodCancel {
		w.Line("STATUS", "CANCELLED")
	} else {
		w.Line("STATUS", "CONFIRMED")
	}
	w.Line("TRANSP", "OPAQUE")
	w.Line("LAST-MODIFIED", ical.UTC(b.UpdatedAt))
	w.Line("END", "VEVENT")
	w.Line("END", "VCALENDAR")
	return w.Bytes()
}

func (s *Service) typeName(id string) string {
	if t, ok := s.byID[id]; ok {
		return t.Name
	}
	return id
}
