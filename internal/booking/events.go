package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// Seated types (the group training) are sold by the seat: the owner
// schedules occurrences, each with a number of seats, and a visitor books
// one seat of one through the same hold, Checkout and webhook path as a
// one-to-one call. A seat is a booking row that names its occurrence
// (event_id), so it has its own hold, payment, refund, invitation (its UID
// is the booking's: one per occurrence and attendee), reminders and manage
// links.
//
// The database counts the seats: a seat that starts to count (a new hold,
// request or confirmation, or a lapsed hold paid late) is refused once the
// occurrence has as many as it has seats (SQLite's trigger inside the one
// writer; PostgreSQL's trigger under a lock on the occurrence's row), so
// concurrent buyers of the last seats get exactly that many. A lapsed hold
// stops counting when it is marked expired, which every write does first.
//
// An occurrence is the owner's busy time: one-to-one slots around it are
// not offered, and a one-to-one booking or move into it is refused inside
// the booking transaction.

// The statuses of an occurrence.
const (
	EventStatusScheduled = "scheduled"
	EventStatusCancelled = "cancelled"
)

// Limits of an occurrence the owner schedules.
const (
	MaxEventSeats   = 1000
	MaxEventMinutes = 12 * 60
	maxMessage      = 5000
)

// Event is one occurrence of a seated type.
type Event struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	TypeName  string    `json:"type_name"`
	Status    string    `json:"status"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Duration  int       `json:"duration"` // minutes
	Seats     int       `json:"seats"`
	SeatsLeft int       `json:"seats_left"` // less the seats kept for people on the wait list
	Waiting   int       `json:"waiting"`    // people on the date's wait list still waiting
	Taken     int       `json:"taken"`      // held (unpaid, live), requested and confirmed seats
	Price     int64     `json:"price"`      // a seat's, in the currency's smallest unit
	Currency  string    `json:"currency"`
}

// EventInput is what the owner sends to schedule an occurrence. Zero
// Duration and Seats take the type's length and default seats.
type EventInput struct {
	Type     string `json:"type"`
	Start    string `json:"start"` // RFC 3339
	Duration int    `json:"duration"`
	Seats    int    `json:"seats"`
}

// errSoldOut is the answer when the database refuses a seat.
var errSoldOut = errs.New(errs.SoldOut, "Sorry, the last seat of this date was just taken. Please choose another date.")

// seatRefused reports whether err is the database's seat rule refusing a
// seat: the occurrence is full or no longer scheduled.
func seatRefused(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "booking_event_sold_out") ||
		strings.Contains(err.Error(), "booking_event_closed"))
}

const eventColumns = `e.id, e.type_id, e.status, e.start_at, e.end_at, e.seats,
	(SELECT COUNT(*) FROM bookings b WHERE b.event_id = e.id AND b.status IN ` + blockingSQL + `
	   AND (b.status <> 'held' OR b.expires_at > $1)), ` + waitingSQL

func (s *Service) scanEvent(row interface{ Scan(...any) error }) (*Event, error) {
	var (
		e          Event
		start, end store.Time
		taken      int
	)
	if err := row.Scan(&e.ID, &e.Type, &e.Status, &start, &end, &e.Seats, &taken, &e.Waiting); err != nil {
		return nil, err
	}
	e.Start, e.End = start.Time, end.Time
	e.Duration = int(e.End.Sub(e.Start) / time.Minute)
	// A seat given back while people wait is theirs (OfferSeats).
	e.SeatsLeft = max(e.Seats-taken-e.Waiting, 0)
	e.Taken = taken
	if e.Status != EventStatusScheduled {
		e.SeatsLeft = 0
	}
	e.TypeName = s.typeName(e.Type)
	if t, ok := s.byID[e.Type]; ok {
		e.Price, e.Currency = t.Price, t.Currency
	}
	return &e, nil
}

// seatedType returns the seated type id names, or a field error.
func (s *Service) seatedType(id string) (Type, error) {
	t, err := s.nativeType(id)
	if err != nil {
		return Type{}, err
	}
	if !t.Seated() {
		return Type{}, errs.Field("type", "This session is booked by time, not by the seat.")
	}
	return t, nil
}

// Events lists the upcoming scheduled occurrences of a seated type, soonest
// first, with the seats left (visitors; a full one is listed with 0).
func (s *Service) Events(ctx context.Context, typeID string) ([]*Event, error) {
	t, err := s.seatedType(typeID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	return s.queryEvents(ctx, `SELECT `+eventColumns+` FROM booking_events e
		WHERE e.type_id = $2 AND e.status = 'scheduled' AND e.start_at > $1 ORDER BY e.start_at, e.id LIMIT 200`,
		store.At(now), t.ID)
}

// AdminEvents lists the occurrences the owner sees: those not over more
// than 30 days ago, cancelled ones included, soonest first.
func (s *Service) AdminEvents(ctx context.Context) ([]*Event, error) {
	now := s.now()
	return s.queryEvents(ctx, `SELECT `+eventColumns+` FROM booking_events e
		WHERE e.end_at > $2 ORDER BY e.start_at, e.id LIMIT 500`,
		store.At(now), store.At(now.Add(-30*24*time.Hour)))
}

func (s *Service) queryEvents(ctx context.Context, q string, args ...any) ([]*Event, error) {
	rows, err := s.db.Read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list occurrences: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []*Event{}
	for rows.Next() {
		e, err := s.scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("list occurrences: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list occurrences: %w", err)
	}
	return out, nil
}

// Event returns one occurrence.
func (s *Service) Event(ctx context.Context, id string) (*Event, error) {
	return s.loadEvent(ctx, s.db.Read.QueryRowContext, id)
}

func (s *Service) loadEvent(ctx context.Context, q func(context.Context, string, ...any) *sql.Row, id string) (*Event, error) {
	e, err := s.scanEvent(q(ctx, `SELECT `+eventColumns+` FROM booking_events e WHERE e.id = $2`, store.At(s.now()), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.NotFound, "There is no such date of this training.")
	}
	if err != nil {
		return nil, fmt.Errorf("read occurrence %s: %w", id, err)
	}
	return e, nil
}

// ScheduleEvent adds an occurrence of a seated type (owner). Its time,
// buffers included, must not meet a one-to-one booking or another
// occurrence: both are the owner's time.
func (s *Service) ScheduleEvent(ctx context.Context, in EventInput) (*Event, error) {
	t, err := s.seatedType(in.Type)
	if err != nil {
		return nil, err
	}
	start, err := parseStart(in.Start)
	if err != nil {
		return nil, err
	}
	minutes, seats := in.Duration, in.Seats
	if minutes == 0 {
		minutes = t.Minutes
	}
	if seats == 0 {
		seats = t.Seats
	}
	if err := checkEventMinutes(minutes, false); err != nil {
		return nil, err
	}
	switch {
	case seats < 1 || seats > MaxEventSeats:
		return nil, errs.Field("seats", fmt.Sprintf("Seats must be from 1 to %d.", MaxEventSeats))
	}
	_, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if err := checkEventStart(start, now); err != nil {
		return nil, err
	}
	end := start.Add(time.Duration(minutes) * time.Minute)
	blocked := r.blocked(start, end.Sub(start))
	id := store.NewID()
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		if err := dateFree(ctx, tx, blocked, ""); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO booking_events (id, type_id, status, start_at, end_at, blocked_from, blocked_until,
			seats, created_at, updated_at) VALUES ($1, $2, 'scheduled', $3, $4, $5, $6, $7, $8, $8)`,
			id, t.ID, store.At(start), store.At(end), store.At(blocked.from), store.At(blocked.until), seats, store.At(now))
		if err != nil {
			return fmt.Errorf("schedule occurrence: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, wrap("schedule occurrence", err)
	}
	return s.Event(ctx, id)
}

// dateFree checks, inside the write transaction, that an occurrence may
// take blocked (its time with the buffers): no one-to-one booking and no
// other occurrence than except is there. Both are the owner's time.
func dateFree(ctx context.Context, tx *sql.Tx, blocked span, except string) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bookings WHERE event_id IS NULL AND status IN `+blockingSQL+`
		AND blocked_from < $1 AND $2 < blocked_until`, store.At(blocked.until), store.At(blocked.from)).Scan(&n)
	if err != nil {
		return fmt.Errorf("check one-to-one bookings: %w", err)
	}
	if n > 0 {
		return errs.Field("start", "A one-to-one booking already takes part of this time. Cancel or move it first, or choose another time.")
	}
	if err := eventsFreeBut(ctx, tx, blocked, except); errors.Is(err, errSlotTaken) {
		return errs.Field("start", "Another date of a group training already takes part of this time.")
	} else if err != nil {
		return err
	}
	return nil
}

// checkEventMinutes refuses an occurrence length that is not a multiple of
// 5 minutes from 15 to MaxEventMinutes; 0 passes when it means "keep".
func checkEventMinutes(minutes int, zeroKeeps bool) error {
	if minutes == 0 && zeroKeeps {
		return nil
	}
	if minutes < 15 || minutes > MaxEventMinutes || minutes%5 != 0 {
		return errs.Field("duration", fmt.Sprintf("Duration must be a multiple of 5 minutes from 15 to %d.", MaxEventMinutes))
	}
	return nil
}

// checkEventStart refuses an occurrence start in the past or more than two
// years ahead.
func checkEventStart(start, now time.Time) error {
	if !start.After(now) {
		return errs.Field("start", "That time has passed. Please choose a later time.")
	}
	if start.After(now.AddDate(2, 0, 0)) {
		return errs.Field("start", "Schedule dates at most two years ahead.")
	}
	return nil
}

// MoveEvent gives a scheduled occurrence another start and, when minutes
// is not 0, another length (owner). The new time, buffers included, must
// be free as when it was scheduled. Every seat moves with it in the same
// transaction, so no attendee is left on the old time, and each is told
// with the calendar update; a date that has begun stays where it is.
func (s *Service) MoveEvent(ctx context.Context, id, newStart string, minutes int) (*Event, error) {
	start, err := parseStart(newStart)
	if err != nil {
		return nil, err
	}
	if err := checkEventMinutes(minutes, true); err != nil {
		return nil, err
	}
	st, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if err := checkEventStart(start, now); err != nil {
		return nil, err
	}
	var seats []string
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		e, err := s.loadEvent(ctx, tx.QueryRowContext, id)
		if err != nil {
			return err
		}
		length := e.End.Sub(e.Start)
		if minutes != 0 {
			length = time.Duration(minutes) * time.Minute
		}
		end := start.Add(length)
		switch {
		case e.Status != EventStatusScheduled:
			return errs.New(errs.Conflict, "This date is cancelled.")
		case !e.Start.After(now):
			return errs.New(errs.Conflict, "This date has begun and can no longer be moved.")
		case start.Equal(e.Start) && end.Equal(e.End):
			return errs.Field("start", "That is already this date's time.")
		}
		blocked := r.blocked(start, end.Sub(start))
		if err := dateFree(ctx, tx, blocked, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE booking_events SET start_at = $1, end_at = $2, blocked_from = $3,
			blocked_until = $4, updated_at = $5 WHERE id = $6`,
			store.At(start), store.At(end), store.At(blocked.from), store.At(blocked.until), store.At(now), id); err != nil {
			return fmt.Errorf("move occurrence: %w", err)
		}
		// The owner's reminders of the date are planned again for the new
		// time; each seat's go as the seat moves (notify).
		if _, err := mail.DropPlanned(ctx, tx, eventReminderPrefix(id)); err != nil {
			return err
		}
		if seats, err = seatIDs(ctx, tx.QueryContext, id, blockingSQL); err != nil {
			return err
		}
		for _, bid := range seats {
			before, err := loadBooking(ctx, tx.QueryRowContext, bid)
			if err != nil {
				return err
			}
			seq := nextSequence(before)
			// A seat blocks the session alone (its occurrence holds the buffers).
			if _, err := tx.ExecContext(ctx, `UPDATE bookings SET start_at = $1, end_at = $2, blocked_from = $1,
				blocked_until = $2, ics_sequence = $3, updated_at = $4 WHERE id = $5`,
				store.At(start), store.At(end), seq, store.At(now), bid); err != nil {
				return fmt.Errorf("move seat %s: %w", bid, err)
			}
			after, err := loadBooking(ctx, tx.QueryRowContext, bid)
			if err != nil {
				return err
			}
			if err := s.notify(ctx, tx, &notice{settings: st}, before, after, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, wrap("move occurrence", err)
	}
	for _, bid := range seats {
		s.announce(ctx, bid)
	}
	return s.Event(ctx, id)
}

// SetEventSeats changes an occurrence's seats (owner): never below the
// seats already held, requested or confirmed.
func (s *Service) SetEventSeats(ctx context.Context, id string, seats int) (*Event, error) {
	if seats < 1 || seats > MaxEventSeats {
		return nil, errs.Field("seats", fmt.Sprintf("Seats must be from 1 to %d.", MaxEventSeats))
	}
	now := s.now()
	err := s.write(ctx, now, func(tx *sql.Tx) error {
		e, err := s.loadEvent(ctx, tx.QueryRowContext, id)
		if err != nil {
			return err
		}
		if e.Status != EventStatusScheduled {
			return errs.New(errs.Conflict, "This date is cancelled.")
		}
		if taken := e.Seats - e.SeatsLeft; seats < taken {
			return errs.Field("seats", fmt.Sprintf("%d seats are already taken; seats cannot be fewer.", taken))
		}
		_, err = tx.ExecContext(ctx, `UPDATE booking_events SET seats = $1, updated_at = $2 WHERE id = $3`, seats, store.At(now), id)
		if err != nil {
			return fmt.Errorf("set seats: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, wrap("set seats", err)
	}
	return s.Event(ctx, id)
}

// CancelEvent cancels an occurrence (owner): no new seat can be taken, and
// every seat held, requested or confirmed is cancelled as the owner cancels
// a booking, with its mails (the invitation withdrawn), its open Checkout
// closed and the whole amount paid refunded (SettleOwed retries a refund
// Stripe did not take); the returned refunds list what was owed.
func (s *Service) CancelEvent(ctx context.Context, id string) (*Event, []*Refund, error) {
	now := s.now()
	err := s.write(ctx, now, func(tx *sql.Tx) error {
		e, err := s.loadEvent(ctx, tx.QueryRowContext, id)
		if err != nil {
			return err
		}
		if e.Status != EventStatusScheduled {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE booking_events SET status = 'cancelled', updated_at = $1 WHERE id = $2`, store.At(now), id)
		if err != nil {
			return fmt.Errorf("cancel occurrence: %w", err)
		}
		// The owner's reminder of the date goes with it; each seat's own
		// go as the seats are cancelled.
		_, err = mail.DropPlanned(ctx, tx, eventReminderPrefix(id))
		return err
	})
	if err != nil {
		return nil, nil, wrap("cancel occurrence", err)
	}
	seats, err := seatIDs(ctx, s.db.Read.QueryContext, id, blockingSQL)
	if err != nil {
		return nil, nil, err
	}
	var refunds []*Refund
	for _, bid := range seats {
		_, refund, err := s.CancelAsOwner(ctx, bid)
		if err != nil && !errs.Is(err, errs.Conflict) { // a seat cancelled meanwhile
			return nil, refunds, err
		}
		if refund != nil {
			refunds = append(refunds, refund)
		}
	}
	e, err := s.Event(ctx, id)
	return e, refunds, err
}

// seatIDs lists an occurrence's seats in the given statuses, in the order
// they were taken, through q (the read pool, or a write transaction).
func seatIDs(ctx context.Context, q queryFunc, eventID, statuses string) ([]string, error) {
	rows, err := q(ctx, `SELECT id FROM bookings WHERE event_id = $1 AND status IN `+statuses+` ORDER BY created_at, id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read seats: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Attendees lists an occurrence's seats the owner sees: held, requested,
// confirmed, and after the session completed and no-shows, in the order
// they were taken.
func (s *Service) Attendees(ctx context.Context, eventID string) ([]*Booking, error) {
	if _, err := s.Event(ctx, eventID); err != nil {
		return nil, err
	}
	now := s.now()
	rows, err := s.db.Read.QueryContext(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE event_id = $1 AND status IN `+countedSQL+` AND (status <> 'held' OR expires_at > $2)
		ORDER BY created_at, id`, eventID, store.At(now))
	if err != nil {
		return nil, fmt.Errorf("list attendees: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []*Booking{}
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return nil, fmt.Errorf("list attendees: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// EventMessage is the owner's message to an occurrence's attendees.
type EventMessage struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// MessageAttendees mails the owner's message to every attendee with a
// confirmed or requested seat, through the outbox in one transaction (all
// are queued, or none), and returns how many it queued. The footer gives
// the owner's address for questions.
func (s *Service) MessageAttendees(ctx context.Context, eventID string, m EventMessage) (int, error) {
	subject, body := strings.TrimSpace(m.Subject), strings.TrimSpace(m.Body)
	switch {
	case subject == "" || !printable(subject) || utf8.RuneCountInString(subject) > 150:
		return 0, errs.Field("subject", "Subject must be 1 to 150 characters on one line.")
	case body == "" || !utf8.ValidString(body) || strings.ContainsRune(body, 0):
		return 0, errs.Field("body", "Please write the message.")
	case utf8.RuneCountInString(body) > maxMessage:
		return 0, errs.Field("body", fmt.Sprintf("The message must be at most %d characters.", maxMessage))
	}
	st, _, err := s.settings(ctx)
	if err != nil {
		return 0, err
	}
	e, err := s.Event(ctx, eventID)
	if err != nil {
		return 0, err
	}
	sent := 0
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT email, time_zone FROM bookings
			WHERE event_id = $1 AND status IN ('requested', 'confirmed') ORDER BY created_at, id`, eventID)
		if err != nil {
			return fmt.Errorf("read attendees: %w", err)
		}
		type to struct{ email, zone string }
		var list []to
		for rows.Next() {
			var t to
			if err := rows.Scan(&t.email, &t.zone); err != nil {
				_ = rows.Close()
				return fmt.Errorf("read attendees: %w", err)
			}
			list = append(list, t)
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("read attendees: %w", err)
		}
		if len(list) == 0 {
			return errs.New(errs.Conflict, "This date has no confirmed or requested attendees to write to.")
		}
		for _, t := range list {
			paras := append(strings.Split(body, "\n\n"),
				"About: "+e.TypeName+", "+When(e.Start, t.zone)+".")
			msg := mail.Compose(mail.Content{
				To: t.email, Subject: subject, Heading: subject, Paragraphs: paras,
				Footer: "You received this because you have a seat in this training. Questions: write to " + st.OwnerName + " at " + st.OwnerEmail + ".",
			})
			if _, err := mail.Enqueue(ctx, tx, msg); err != nil {
				return fmt.Errorf("queue message: %w", err)
			}
			sent++
		}
		return nil
	})
	if err != nil {
		return 0, wrap("message attendees", err)
	}
	return sent, nil
}

// bookSeat books one seat of an occurrence: held for payment, a request
// (payments off) or confirmed (free), as Book does for a time. The
// database refuses a seat past the occurrence's seats (sold_out).
func (s *Service) bookSeat(ctx context.Context, c *checked, in Request) (*Created, error) {
	if !c.typ.Seated() {
		return nil, errs.Field("event_id", "This session is booked by time: send a start, not a date of a group training.")
	}
	eventID := strings.TrimSpace(in.EventID)
	if eventID == "" {
		return nil, errs.Field("event_id", "Please choose a date of the training.")
	}
	st, _, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	e, err := s.Event(ctx, eventID)
	if errs.Is(err, errs.NotFound) {
		return nil, errs.Field("event_id", "There is no such date of this training. Please choose one from the list.")
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case e.Type != c.typ.ID:
		return nil, errs.Field("event_id", "That date belongs to another training. Please choose one from the list.")
	case e.Status != EventStatusScheduled:
		return nil, errs.Field("event_id", "That date was cancelled. Please choose another one.")
	case !e.Start.After(now):
		return nil, errs.Field("event_id", "That date has passed. Please choose a later one.")
	}
	status := s.newStatus(c.typ)
	token, hash := newToken()
	out := &Created{Token: token}
	id := store.NewID()
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		// A second press of the same button gets its hold back; a second
		// seat for the same address is refused (one seat per attendee, so
		// each gets their own invitation and links).
		// A stranger who types an attendee's address is told the date is
		// full, as for any full date, and learns nothing of the attendee.
		var prev, prevStatus, prevHolder string
		err := tx.QueryRowContext(ctx, `SELECT id, status, hold_key_hash FROM bookings
			WHERE email_normalized = $1 AND event_id = $2 AND status IN `+blockingSQL,
			c.key, e.ID).Scan(&prev, &prevStatus, &prevHolder)
		switch {
		case err == nil && !sameHolder(prevHolder, in.HoldKey):
			return errSoldOut
		case err == nil && prevStatus == StatusHeld:
			out.Reused, id = true, prev
			return addHoldToken(ctx, tx, hash, prev, now)
		case err == nil:
			return errs.Field("email", "This e-mail address already has a seat on this date; your confirmation e-mail has the details. Each attendee books with their own address.")
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("find a repeated seat: %w", err)
		}
		if err := s.checkLimits(ctx, tx, c.key, in.ClientAddr, status, now); err != nil {
			return err
		}
		if err := seatsKeptForWaitlist(ctx, tx, e.ID, now); err != nil {
			return err
		}
		if status == StatusHeld {
			if err := seatHoldCeiling(ctx, tx, e.ID, now); err != nil {
				return err
			}
		}
		// The date as it is now: the owner may have moved it since it was
		// read above, and a seat must never keep the old time.
		cur, err := s.loadEvent(ctx, tx.QueryRowContext, e.ID)
		if err != nil {
			return err
		}
		if !cur.Start.After(now) {
			return errs.Field("event_id", "That date has passed. Please choose a later one.")
		}
		// A seat takes none of the owner's one-to-one time by itself (its
		// occurrence does), so its blocked time is the session alone.
		err = s.insertBooking(ctx, tx, st, c, in, newRow{
			id: id, status: status, hash: hash,
			start: cur.Start, end: cur.End, blocked: span{cur.Start, cur.End}, eventID: e.ID,
		}, now)
		if seatRefused(err) {
			return errSoldOut
		}
		return err
	})
	if err != nil {
		return nil, wrap("book a seat", err)
	}
	if out.Booking, err = s.Get(ctx, id); err != nil {
		return nil, err
	}
	return out, nil
}

// seatHoldCeiling refuses a new unpaid seat once holds waiting for payment
// take half of a date's seats (always at least one), so holds never paid
// cannot sell a date out: the rest go to people who pay at once.
func seatHoldCeiling(ctx context.Context, tx *sql.Tx, eventID string, now time.Time) error {
	var seats, held int
	var first store.NullTime
	err := tx.QueryRowContext(ctx, `SELECT e.seats,
		    (SELECT COUNT(*) FROM bookings b WHERE b.event_id = e.id AND b.status = 'held' AND b.expires_at > $2),
		    (SELECT MIN(b.expires_at) FROM bookings b WHERE b.event_id = e.id AND b.status = 'held' AND b.expires_at > $2)
		  FROM booking_events e WHERE e.id = $1`, eventID, store.At(now)).Scan(&seats, &held, &first)
	if err != nil {
		return fmt.Errorf("count held seats: %w", err)
	}
	if held > 0 && held >= max(1, seats/2) {
		retry := HoldTTL
		if first.Valid {
			retry = first.Time.Sub(now)
		}
		return errs.New(errs.SoldOut, "Sorry, the seats left on this date are waiting for payment right now. Please try again in a quarter of an hour, or choose another date.").After(retry)
	}
	return nil
}

// eventsFree refuses one-to-one time that a scheduled occurrence takes
// (its buffers included). It runs inside the booking transaction, which
// scheduling an occurrence also takes, so neither can slip past the other.
func eventsFree(ctx context.Context, tx *sql.Tx, b span) error {
	return eventsFreeBut(ctx, tx, b, "")
}

// eventsFreeBut is eventsFree leaving out occurrence except (the one
// being moved).
func eventsFreeBut(ctx context.Context, tx *sql.Tx, b span, except string) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM booking_events
		WHERE status = 'scheduled' AND blocked_from < $1 AND $2 < blocked_until AND id <> $3`,
		store.At(b.until), store.At(b.from), except).Scan(&n)
	if err != nil {
		return fmt.Errorf("check group trainings: %w", err)
	}
	if n > 0 {
		return errSlotTaken
	}
	return nil
}

// readEvents adds the scheduled occurrences touching [lo, hi) to the busy
// time; the caller merges.
func readEvents(ctx context.Context, q queryFunc, cal *calendar, lo, hi time.Time) error {
	rows, err := q(ctx, `SELECT blocked_from, blocked_until FROM booking_events
		WHERE status = 'scheduled' AND blocked_until > $1 AND blocked_from < $2`, store.At(lo), store.At(hi))
	if err != nil {
		return fmt.Errorf("read group trainings: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var from, until store.Time
		if err := rows.Scan(&from, &until); err != nil {
			return fmt.Errorf("read group trainings: %w", err)
		}
		cal.busy = append(cal.busy, span{from.Time, until.Time})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read group trainings: %w", err)
	}
	return nil
}

// eventReminderPrefix starts the outbox keys of a date's owner reminders.
func eventReminderPrefix(eventID string) string { return "booking-event-reminder-" + eventID + "-" }

// eventOwnerReminder is the owner's one reminder of a group training date:
// every seat's planning proposes it under the date's key, so the outbox
// keeps one however many seats there are.
func (s *Service) eventOwnerReminder(b *Booking, st Settings, r reminder, in string) addressed {
	what := s.typeName(b.Type)
	paras := []string{"When: " + When(b.Start, st.TimeZone) + "."}
	if b.MeetingLink != "" {
		paras = append(paras, "Room: "+b.MeetingLink)
	}
	paras = append(paras, "The attendees are listed with the date in the Admin tab, where you can also write to all of them.")
	return addressed{who: "owner", key: fmt.Sprintf("%s%s-%d-owner", eventReminderPrefix(b.EventID), r.kind, b.Start.Unix()),
		Message: mail.Compose(mail.Content{
			To: st.OwnerEmail, Subject: "Reminder: " + what + " " + in,
			Heading:    what + " " + in,
			Paragraphs: paras,
			Button:     &mail.Link{Label: "Open the attendees", URL: s.adminURL()},
		})}
}
