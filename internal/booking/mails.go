package booking

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"time"

	"tribe/internal/content"
	"tribe/internal/mail"
)

// The mails of a booking are queued through the outbox in the transaction
// of the change that calls for them (notify), so each is sent once if the
// change commits and never if it does not. Calendar invitations travel as
// text/calendar attachments with their iTIP method; the booker's mails carry
// a fresh manage token (the link to view, move or cancel).

// invitationFile is the attachment's name; calendars read the method from
// its media type.
const invitationFile = "invite.ics"

// notify queues the mails for a booking that went from before (nil: just
// made) to after.
func (s *Service) notify(ctx context.Context, tx *sql.Tx, n *notice, before, after *Booking, now time.Time) error {
	m := &mailer{ctx: ctx, s: s, tx: tx, st: n.settings, nearest: n.nearest, b: after, now: now}
	if before == nil {
		switch after.Status {
		case StatusConfirmed:
			return m.confirmed(false)
		case StatusRequested:
			return m.requested()
		}
		return nil // a hold: the mails come with the payment
	}
	// A group training date can change its length alone (MoveEvent).
	moved := !before.Start.Equal(after.Start) || !before.End.Equal(after.End)
	if moved || before.Status != after.Status {
		// Reminders planned for the old time or state go; the planner plans
		// them again for a booking that is still confirmed.
		if _, err := mail.DropPlanned(ctx, tx, reminderPrefix(after.ID)); err != nil {
			return err
		}
		if _, err := mail.DropPlanned(ctx, tx, briefPrefix(after.ID)); err != nil {
			return err
		}
	}
	switch {
	case before.Status != StatusConfirmed && after.Status == StatusConfirmed:
		if err := m.confirmed(before.Status == StatusRequested); err != nil {
			return err
		}
	case after.Status == StatusCancelled && before.Status != StatusCancelled:
		if err := m.cancelled(before.Status); err != nil {
			return err
		}
	case before.Status == StatusRequested && after.Status == StatusDeclined:
		if err := m.declined(); err != nil {
			return err
		}
	case moved:
		if err := m.moved(before); err != nil {
			return err
		}
	}
	if before.PaidAt == nil && after.PaidAt != nil && after.Status == StatusExpired {
		if err := m.apology(); err != nil {
			return err
		}
	}
	if after.Refunded > before.Refunded {
		if err := m.refunded(after.Refunded - before.Refunded); err != nil {
			return err
		}
	}
	return nil
}

// notice is what a change's mails need, read before its transaction.
type notice struct {
	settings Settings
	nearest  []time.Time // free times near a lost one, for the apology
}

// mailer writes one change's mails.
type mailer struct {
	ctx     context.Context
	s       *Service
	tx      *sql.Tx
	st      Settings
	nearest []time.Time
	b       *Booking
	now     time.Time
}

func (m *mailer) send(msg mail.Message) error {
	if _, err := mail.Enqueue(m.ctx, m.tx, msg); err != nil {
		return fmt.Errorf("mail booking %s: %w", m.b.ID, err)
	}
	return nil
}

// manageURL issues a token and returns the booker's link to the booking.
func (m *mailer) manageURL() (string, error) {
	token, err := issueToken(m.ctx, m.tx, m.b.ID, m.now)
	if err != nil {
		return "", err
	}
	return m.s.ManageURL(m.b.ID, token), nil
}

// ManageURL is the booker's page of a booking, opened by token.
func (s *Service) ManageURL(id, token string) string {
	return s.baseURL + "/bookings/" + url.PathEscape(id) + "?token=" + url.QueryEscape(token)
}

// adminURL is where the owner handles bookings (the Admin tab).
func (s *Service) adminURL() string { return s.baseURL + "/members" }

// BookURL is the page that books a type, optionally at a start.
func (s *Service) BookURL(typeID string, start time.Time) string {
	u := s.baseURL + "/book/" + url.PathEscape(typeID)
	if !start.IsZero() {
		u += "?start=" + url.QueryEscape(start.Format(time.RFC3339))
	}
	return u
}

// When writes an instant for a sentence in zone, 12-hour as the site shows
// times: "Monday, March 2, 2026, 3:00 PM (Europe/Paris)".
func When(t time.Time, zone string) string {
	loc, err := content.LoadZone(zone)
	if err != nil {
		loc, zone = time.UTC, "UTC"
	}
	return t.In(loc).Format("Monday, January 2, 2006, 3:04 PM") + " (" + zone + ")"
}

// bookerWhen is the booking's time in the booker's zone, and in the
// owner's when it differs.
func (m *mailer) bookerWhen() string {
	w := When(m.b.Start, m.b.TimeZone)
	if m.st.TimeZone != m.b.TimeZone {
		w += "; " + When(m.b.Start, m.st.TimeZone) + " for " + m.st.OwnerName
	}
	return w
}

func (m *mailer) ownerWhen() string { return When(m.b.Start, m.st.TimeZone) }

func (m *mailer) what() string {
	return fmt.Sprintf("%s (%s)", m.s.typeName(m.b.Type), minutesText(int(m.b.End.Sub(m.b.Start)/time.Minute)))
}

func (m *mailer) price(amount int64) string { return content.FormatMinor(amount, m.b.Currency) }

// paid is what the booker paid, with the promotion code's discount when
// one was used ("$135.00 ($150.00 less $15.00 off)").
func (m *mailer) paid() string {
	if m.b.Discount <= 0 {
		return m.price(m.b.Amount)
	}
	return m.price(m.b.Paid()) + " (" + m.price(m.b.Amount) + " less " + m.price(m.b.Discount) + " off)"
}

func (m *mailer) invitation(method, manage string) []mail.Attachment {
	b := m.b
	if manage != "" {
		// The booker's copy (the one with a manage link) leaves out the
		// notes, for the reason confirmed gives.
		c := *m.b
		c.Notes = ""
		b = &c
	}
	return []mail.Attachment{{
		Filename:    invitationFile,
		ContentType: "text/calendar; method=" + method + "; charset=UTF-8",
		Data:        m.s.Invitation(b, m.st, method, manage),
	}}
}

// cutoffLine says until when the booker can change the booking online.
func (m *mailer) cutoffLine() string {
	until := m.b.Start.Add(-time.Duration(m.st.Cutoff) * time.Minute)
	if m.b.EventID != "" {
		return "You can cancel your seat online, with a full refund of what you paid, until " + When(until, m.b.TimeZone) + "."
	}
	return "You can reschedule or cancel online until " + When(until, m.b.TimeZone) + "."
}

func (m *mailer) ownerDetails() []string {
	lines := []string{
		"Who: " + m.b.Name + " <" + m.b.Email + ">",
		"When: " + m.ownerWhen() + "; for them " + When(m.b.Start, m.b.TimeZone) + ".",
	}
	if m.b.Notes != "" {
		lines = append(lines, "What they would like to cover: "+m.b.Notes)
	}
	if m.b.PaidAt != nil {
		lines = append(lines, "Paid: "+m.paid()+".")
	}
	return lines
}

// ownerRoomLine tells the owner where the call is held, or that they must
// send the link themselves.
func (m *mailer) ownerRoomLine() string {
	if m.b.MeetingLink != "" {
		return "Room: " + m.b.MeetingLink
	}
	return "No room address is set in Admin → Booking: send " + m.b.Name + " the link to join yourself."
}

// confirmed: the invitation (REQUEST, the current sequence) to the booker,
// with the manage link, and to the owner.
func (m *mailer) confirmed(wasRequest bool) error {
	manage, err := m.manageURL()
	if err != nil {
		return err
	}
	paras := []string{"When: " + m.bookerWhen() + "."}
	if m.b.MeetingLink != "" {
		paras = append(paras, "Join the call here: "+m.b.MeetingLink)
	} else {
		paras = append(paras, noRoomLine(m.st.OwnerName))
	}
	switch {
	case m.b.PaidAt != nil:
		paras = append(paras, "Paid: "+m.paid()+". Thank you.")
	case wasRequest && m.b.Amount > 0:
		paras = append(paras, fmt.Sprintf("Price: %s. %s will tell you how to pay.", m.price(m.b.Amount), m.st.OwnerName))
	}
	// The booker's notes are not quoted back: a free call is confirmed to
	// any address typed in the form, and quoting would relay a stranger's
	// text to it. The booking's page shows them.
	paras = append(paras, "The invitation is attached: open it to add the call to your calendar.", m.cutoffLine())
	heading := "Your " + m.s.typeName(m.b.Type) + " is booked"
	if wasRequest {
		heading = m.st.OwnerName + " confirmed your " + m.s.typeName(m.b.Type)
	}
	// A seat cannot be moved: its date is the owner's.
	button, booked := "View, reschedule or cancel", "booked a call"
	if m.b.EventID != "" {
		button, booked = "View or cancel your seat", "booked a seat"
	}
	err = m.send(withFiles(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Confirmed: " + m.what() + " on " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: heading, Paragraphs: paras,
		Button: &mail.Link{Label: button, URL: manage},
		Footer: "You received this because this address " + booked + " on " + m.s.baseURL + ".",
	}), m.invitation(MethodRequest, manage)))
	if err != nil {
		return err
	}
	owner := append(m.ownerDetails(), m.ownerRoomLine())
	return m.send(withFiles(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Booked: " + m.b.Name + ", " + m.what() + " on " + dateOnly(m.b.Start, m.st.TimeZone),
		Heading: "New booking: " + m.what(), Paragraphs: owner,
		Button: &mail.Link{Label: "Open bookings", URL: m.s.adminURL()},
	}), m.invitation(MethodRequest, "")))
}

// requested: payments off, a paid type waits for the owner.
func (m *mailer) requested() error {
	manage, err := m.manageURL()
	if err != nil {
		return err
	}
	asked := "asked for a call"
	if m.b.EventID != "" {
		asked = "asked for a seat"
	}
	err = m.send(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Request received: " + m.what() + " on " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: "Your request is with " + m.st.OwnerName,
		Paragraphs: []string{
			"When: " + m.bookerWhen() + ".",
			"This time is kept for you while " + m.st.OwnerName + " confirms it. You will get the invitation once it is confirmed.",
			fmt.Sprintf("Price: %s. Payment is arranged after confirmation.", m.price(m.b.Amount)),
		},
		Button: &mail.Link{Label: "View or cancel the request", URL: manage},
		Footer: "You received this because this address " + asked + " on " + m.s.baseURL + ".",
	}))
	if err != nil {
		return err
	}
	return m.send(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Request: " + m.b.Name + ", " + m.what() + " on " + dateOnly(m.b.Start, m.st.TimeZone),
		Heading: "A booking request to confirm", Paragraphs: append(m.ownerDetails(),
			"Confirm or decline it in the Admin tab; the time is kept until then."),
		Button: &mail.Link{Label: "Confirm or decline", URL: m.s.adminURL()},
	}))
}

// declined: the owner refused a request.
func (m *mailer) declined() error {
	return m.send(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Request declined: " + m.what() + " on " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: m.st.OwnerName + " cannot take this call",
		Paragraphs: []string{
			"Your request for " + m.bookerWhen() + " was declined. Nothing was charged.",
			"You are welcome to choose another time.",
		},
		Button: &mail.Link{Label: "Choose another time", URL: m.s.BookURL(m.b.Type, time.Time{})},
	}))
}

// cancelled: an invitation sent is withdrawn (METHOD:CANCEL, the next
// sequence) for both; a request gets a note.
func (m *mailer) cancelled(was string) error {
	by := "You cancelled"
	ownerBy := m.b.Name + " cancelled"
	if m.b.CancelledBy == "owner" {
		by, ownerBy = m.st.OwnerName+" cancelled", "You cancelled"
	}
	paras := []string{by + " the " + m.what() + " of " + m.bookerWhen() + "."}
	if m.b.PaidAt != nil && m.b.Paid() > m.b.Refunded {
		paras = append(paras, "The full "+m.price(m.b.Paid())+" is being refunded to your card; you will get a notice when it is on its way.")
	}
	if m.b.Credit {
		// A cancellation gives a package's credit back (credits.go).
		paras = append(paras, "The package credit it used is back in your balance, to book another time with.")
	}
	paras = append(paras, "You are welcome to book another time.")
	var files, ownerFiles []mail.Attachment
	if was == StatusConfirmed {
		files, ownerFiles = m.invitation(MethodCancel, ""), m.invitation(MethodCancel, "")
		paras = append(paras, "The attached update removes the call from your calendar.")
	}
	if was == StatusHeld {
		return nil // nothing was confirmed or sent
	}
	err := m.send(withFiles(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Cancelled: " + m.what() + " on " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: "Your " + m.s.typeName(m.b.Type) + " is cancelled", Paragraphs: paras,
		Button: &mail.Link{Label: "Book another time", URL: m.s.BookURL(m.b.Type, time.Time{})},
	}), files))
	if err != nil {
		return err
	}
	return m.send(withFiles(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Cancelled: " + m.b.Name + ", " + m.what() + " on " + dateOnly(m.b.Start, m.st.TimeZone),
		Heading:    ownerBy + " a booking",
		Paragraphs: m.ownerDetails(),
		Button:     &mail.Link{Label: "Open bookings", URL: m.s.adminURL()},
	}), ownerFiles))
}

// moved: a confirmed booking's invitation is sent again with the next
// sequence; a request gets a note.
func (m *mailer) moved(before *Booking) error {
	if m.b.EventID != "" {
		return m.dateMoved(before)
	}
	manage, err := m.manageURL()
	if err != nil {
		return err
	}
	confirmed := m.b.Status == StatusConfirmed
	paras := []string{
		"New time: " + m.bookerWhen() + ".",
		"It was " + When(before.Start, m.b.TimeZone) + ".",
	}
	if confirmed {
		paras = append(paras, "The attached update moves the call in your calendar.")
	}
	if left := MaxReschedules - m.b.RescheduleCount; left > 0 {
		paras = append(paras, fmt.Sprintf("%s You can move it %s more.", m.cutoffLine(), timesText(left)))
	} else {
		paras = append(paras, "This booking cannot be moved online again; you can still cancel it before the cut-off.")
	}
	var files, ownerFiles []mail.Attachment
	if confirmed {
		files, ownerFiles = m.invitation(MethodRequest, manage), m.invitation(MethodRequest, "")
	}
	err = m.send(withFiles(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Moved: " + m.what() + " to " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: "Your " + m.s.typeName(m.b.Type) + " has a new time", Paragraphs: paras,
		Button: &mail.Link{Label: "View, reschedule or cancel", URL: manage},
	}), files))
	if err != nil {
		return err
	}
	return m.send(withFiles(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Moved: " + m.b.Name + ", " + m.what() + " to " + dateOnly(m.b.Start, m.st.TimeZone),
		Heading:    m.b.Name + " moved a booking",
		Paragraphs: append(m.ownerDetails(), "It was "+When(before.Start, m.st.TimeZone)+"."),
		Button:     &mail.Link{Label: "Open bookings", URL: m.s.adminURL()},
	}), ownerFiles))
}

// dateMoved: the owner moved a group training's date, and the seat with
// it. A confirmed seat's invitation is sent again with the next sequence, a
// requested one gets a note, and a hold none (its payment's confirmation
// carries the new time). The owner made the change, but their calendar
// holds their own copy of each confirmed seat's invitation (mailed at
// confirmation, same UID): it gets the same REQUEST with the next sequence
// (RFC 5546 3.2.2), or it keeps the old time.
func (m *mailer) dateMoved(before *Booking) error {
	if m.b.Status == StatusHeld {
		return nil
	}
	manage, err := m.manageURL()
	if err != nil {
		return err
	}
	paras := []string{
		m.st.OwnerName + " moved the date of the " + m.what() + ".",
		"New time: " + m.bookerWhen() + ".",
		"It was " + When(before.Start, m.b.TimeZone) + ".",
	}
	var files []mail.Attachment
	if m.b.Status == StatusConfirmed {
		files = m.invitation(MethodRequest, manage)
		paras = append(paras, "The attached update moves it in your calendar.")
	}
	paras = append(paras, m.cutoffLine())
	err = m.send(withFiles(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "New date: " + m.what() + " on " + dateOnly(m.b.Start, m.b.TimeZone),
		Heading: "Your " + m.s.typeName(m.b.Type) + " has a new date", Paragraphs: paras,
		Button: &mail.Link{Label: "View or cancel your seat", URL: manage},
	}), files))
	if err != nil || m.b.Status != StatusConfirmed {
		return err
	}
	return m.send(withFiles(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Calendar update: " + m.b.Name + ", " + m.what() + " on " + dateOnly(m.b.Start, m.st.TimeZone),
		Heading:    "The seat of " + m.b.Name + " moved with the date",
		Paragraphs: append(m.ownerDetails(), "It was "+When(before.Start, m.st.TimeZone)+".", "The attached update moves your copy of the invitation."),
		Button:     &mail.Link{Label: "Open bookings", URL: m.s.adminURL()},
	}), m.invitation(MethodRequest, "")))
}

// apology: a payment arrived after the hold lapsed and the time was taken
// meanwhile; the money goes back and three nearest free times are offered.
func (m *mailer) apology() error {
	lost := "someone else has booked " + When(m.b.Start, m.b.TimeZone) + " meanwhile"
	if m.b.EventID != "" {
		lost = "the last seat of " + When(m.b.Start, m.b.TimeZone) + " was taken meanwhile"
	}
	paras := []string{
		"Your payment of " + m.price(m.b.Paid()) + " arrived after the time was no longer held for you, and " + lost + ". We are sorry.",
		"The full amount is being refunded to your card; you will get a notice when it is on its way.",
	}
	if len(m.nearest) > 0 {
		paras = append(paras, "The nearest free times:")
		for _, t := range m.nearest {
			paras = append(paras, "• "+When(t, m.b.TimeZone)+": "+m.s.BookURL(m.b.Type, t))
		}
	}
	err := m.send(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Sorry: your time was taken, and your payment is refunded",
		Heading: "We could not keep your time", Paragraphs: paras,
		Button: &mail.Link{Label: "Choose another time", URL: m.s.BookURL(m.b.Type, time.Time{})},
	}))
	if err != nil {
		return err
	}
	return m.send(mail.Compose(mail.Content{
		To: m.st.OwnerEmail, Subject: "Refunded: a late payment by " + m.b.Name,
		Heading:    "A payment arrived after its hold lapsed",
		Paragraphs: append(m.ownerDetails(), "The time was taken meanwhile, so the payment is refunded in full and the booker was offered other times."),
	}))
}

// refunded: money returned.
func (m *mailer) refunded(amount int64) error {
	return m.send(mail.Compose(mail.Content{
		To: m.b.Email, Subject: "Refund of " + m.price(amount) + " for your " + m.s.typeName(m.b.Type),
		Heading: "Your refund is on its way",
		Paragraphs: []string{
			m.price(amount) + " for the " + m.what() + " of " + When(m.b.Start, m.b.TimeZone) + " has been refunded to the card you paid with.",
			"Banks usually show it within 5 to 10 business days.",
		},
	}))
}

func withFiles(m mail.Message, files []mail.Attachment) mail.Message {
	m.Attachments = files
	return m
}

// dateOnly is a short date for subjects: "Mon, Mar 2, 3:00 PM".
func dateOnly(t time.Time, zone string) string {
	loc, err := content.LoadZone(zone)
	if err != nil {
		loc = time.UTC
	}
	return t.In(loc).Format("Mon, Jan 2, 3:04 PM")
}

func timesText(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// nearestFree returns up to n free starts of a type nearest to around,
// looking a week either side.
func (s *Service) nearestFree(ctx context.Context, typeID string, around time.Time, zone string, n int) ([]time.Time, error) {
	if t, ok := s.byID[typeID]; ok && t.Seated() {
		return nil, nil // seats are chosen by date from the training's page, linked in the mail
	}
	if _, err := content.LoadZone(zone); err != nil {
		zone = "UTC"
	}
	from := around.AddDate(0, 0, -7).UTC().Format(time.DateOnly)
	to := around.AddDate(0, 0, 7).UTC().Format(time.DateOnly)
	av, err := s.Slots(ctx, typeID, from, to, "UTC")
	if err != nil {
		return nil, err
	}
	var all []time.Time
	for _, d := range av.Days {
		for _, v := range d.Slots {
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				all = append(all, t)
			}
		}
	}
	dist := func(t time.Time) time.Duration { return max(t.Sub(around), around.Sub(t)) }
	slices.SortStableFunc(all, func(a, b time.Time) int { return cmp.Compare(dist(a), dist(b)) })
	all = all[:min(n, len(all))]
	slices.SortFunc(all, func(a, b time.Time) int { return a.Compare(b) })
	return all, nil
}
