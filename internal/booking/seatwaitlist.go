package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// The seat wait list of a sold-out group training date (not the tribe's
// wait list, internal/waitlist). Visitors leave a name and an address when
// a date is full. A seat given back (a hold that lapsed, a cancellation,
// seats added) is offered to the first in line: OfferSeats, run by the
// worker loop on every instance, takes the seat as a held booking in their
// name for OfferTTL and mails them a link that pays for it. When that hold
// lapses unpaid the seat goes to the next in line. While anyone waits, a
// freed seat is theirs: the date stays sold out to everyone else.
//
// OfferSeats runs inside the booking write transaction (the booking lock on
// PostgreSQL, the one writer on SQLite), so two instances offer each seat
// once between them; the database's seat rule stands behind it.

// OfferTTL is how long an offered seat is held for the person in line.
const OfferTTL = 2 * time.Hour

// JoinWaitlist puts a visitor in line for a sold-out date. Refused when
// the date is not a scheduled, future date of a seated type (404 or a
// field error) or still has seats (409 conflict: book one). Joining twice
// with one address keeps the first place and answers the same, so the
// answer never tells a stranger who is in line. The confirmation mail
// quotes nothing the visitor typed.
func (s *Service) JoinWaitlist(ctx context.Context, eventID string, in WaitlistRequest) (*WaitlistEntry, error) {
	e, err := s.Event(ctx, eventID)
	if err != nil {
		return nil, err
	}
	zone := strings.TrimSpace(in.TimeZone)
	if zone == "" {
		zone = "UTC"
	}
	c, err := s.check(Request{Type: e.Type, EventID: e.ID, Name: in.Name, Email: in.Email, TimeZone: zone})
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case e.Status != EventStatusScheduled:
		return nil, errs.New(errs.Conflict, "That date was cancelled. Please choose another one.")
	case !e.Start.After(now):
		return nil, errs.New(errs.Conflict, "That date has passed. Please choose a later one.")
	}
	id := store.NewID()
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		cur, err := s.loadEvent(ctx, tx.QueryRowContext, e.ID)
		if err != nil {
			return err
		}
		var prev string
		err = tx.QueryRowContext(ctx, `SELECT id FROM booking_waitlist WHERE event_id = $1 AND email_normalized = $2`,
			e.ID, c.key).Scan(&prev)
		switch {
		case err == nil:
			id = prev
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("find a wait list entry: %w", err)
		}
		if cur.SeatsLeft > 0 {
			return errs.New(errs.Conflict, "This date still has seats: book one instead of joining the wait list.")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO booking_waitlist (id, event_id, name, email, email_normalized, client_addr, time_zone, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, e.ID, c.name, c.email, c.key, clientKey(in.ClientAddr), c.zone, store.At(now)); err != nil {
			return fmt.Errorf("join the wait list: %w", err)
		}
		// Nothing the visitor typed is quoted: the form takes any address,
		// and quoting would relay a stranger's words from the owner's domain.
		_, err = mail.Enqueue(ctx, tx, mail.Compose(mail.Content{
			To: c.email, Subject: "You are on the wait list: " + s.typeName(e.Type) + " on " + dateOnly(e.Start, zone),
			Heading: "You are on the wait list",
			Paragraphs: []string{
				"This address was put on the wait list for the " + s.typeName(e.Type) + " of " + When(e.Start, zone) + ", which is sold out.",
				fmt.Sprintf("If a seat comes free, it is offered to the first in line by e-mail and held for %d hours for them to pay; then to the next.", int(OfferTTL/time.Hour)),
				"If you did not ask for this, ignore this mail: nothing more is sent unless a seat comes free.",
			},
			Footer: "You received this because this address joined a wait list on " + s.baseURL + ".",
		}))
		return err
	})
	if err != nil {
		return nil, wrap("join the wait list", err)
	}
	return s.waitlistEntry(ctx, id)
}

const waitlistColumns = `id, event_id, name, email, status, COALESCE(booking_id, ''), offered_at, offer_expires_at, created_at`

func scanWaitlist(row interface{ Scan(...any) error }) (*WaitlistEntry, error) {
	var (
		w              WaitlistEntry
		offered, until store.NullTime
		created        store.Time
	)
	if err := row.Scan(&w.ID, &w.EventID, &w.Name, &w.Email, &w.Status, &w.BookingID, &offered, &until, &created); err != nil {
		return nil, err
	}
	w.CreatedAt = created.Time
	if offered.Valid {
		t := offered.Time.Time
		w.OfferedAt = &t
	}
	if until.Valid {
		t := until.Time.Time
		w.OfferExpiresAt = &t
	}
	return &w, nil
}

func (s *Service) waitlistEntry(ctx context.Context, id string) (*WaitlistEntry, error) {
	w, err := scanWaitlist(s.db.Read.QueryRowContext(ctx, `SELECT `+waitlistColumns+` FROM booking_waitlist WHERE id = $1`, id))
	if err != nil {
		return nil, fmt.Errorf("read wait list entry %s: %w", id, err)
	}
	return w, nil
}

// Waitlist lists a date's wait list in line order (the owner's view):
// those waiting numbered from 1, then the others.
func (s *Service) Waitlist(ctx context.Context, eventID string) ([]*WaitlistEntry, error) {
	if _, err := s.Event(ctx, eventID); err != nil {
		return nil, err
	}
	rows, err := s.db.ReadRows(ctx, `SELECT `+waitlistColumns+` FROM booking_waitlist WHERE event_id = $1 ORDER BY created_at, id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("read the wait list of %s: %w", eventID, err)
	}
	defer func() { _ = rows.Close() }()
	out := []*WaitlistEntry{}
	pos := 0
	for rows.Next() {
		w, err := scanWaitlist(rows)
		if err != nil {
			return nil, fmt.Errorf("read the wait list of %s: %w", eventID, err)
		}
		if w.Status == WaitWaiting {
			pos++
			w.Position = pos
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// waitingSQL counts a date's people still in line (e is the date's alias).
const waitingSQL = `(SELECT COUNT(*) FROM booking_waitlist w WHERE w.event_id = e.id AND w.status = 'waiting')`

// OfferSeats settles the wait lists and returns how many seats it offered:
// offers whose hold was paid become booked, offers whose hold lapsed (or
// was cancelled) lapse, lists of dates cancelled or past close, and every
// free seat of a date with people waiting is held for the first in line
// and offered by mail. Every instance's worker loop runs it; each seat is
// offered once between them.
func (s *Service) OfferSeats(ctx context.Context) (int, error) {
	st, _, err := s.settings(ctx)
	if err != nil {
		return 0, err
	}
	now := s.now()
	offered := 0
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		offered = 0
		for _, q := range []string{
			`UPDATE booking_waitlist SET status = 'booked' WHERE status = 'offered'
			   AND booking_id IN (SELECT id FROM bookings WHERE status IN ('requested', 'confirmed', 'completed', 'no_show'))`,
			`UPDATE booking_waitlist SET status = 'lapsed' WHERE status = 'offered'
			   AND (booking_id IS NULL OR booking_id IN (SELECT id FROM bookings WHERE status IN ('expired', 'cancelled', 'declined')))`,
			`UPDATE booking_waitlist SET status = 'closed' WHERE status IN ('waiting', 'offered')
			   AND event_id IN (SELECT id FROM booking_events WHERE status <> 'scheduled' OR start_at <= $1)`,
		} {
			args := []any{}
			if strings.Contains(q, "$1") {
				args = append(args, store.At(now))
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return fmt.Errorf("settle wait lists: %w", err)
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT e.id FROM booking_events e
			WHERE e.status = 'scheduled' AND e.start_at > $1 AND `+waitingSQL+` > 0 ORDER BY e.start_at`, store.At(now))
		if err != nil {
			return fmt.Errorf("find wait lists: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				_ = rows.Close()
				return fmt.Errorf("find wait lists: %w", err)
			}
			ids = append(ids, id)
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return fmt.Errorf("find wait lists: %w", err)
		}
		for _, id := range ids {
			n, err := s.offerFree(ctx, tx, st, id, now)
			if err != nil {
				return err
			}
			offered += n
		}
		return nil
	})
	if err != nil {
		return 0, wrap("offer freed seats", err)
	}
	return offered, nil
}

// offerFree offers each free seat of one date to the next in line.
func (s *Service) offerFree(ctx context.Context, tx *sql.Tx, st Settings, eventID string, now time.Time) (int, error) {
	e, err := s.loadEvent(ctx, tx.QueryRowContext, eventID)
	if err != nil {
		return 0, err
	}
	t, ok := s.byID[e.Type]
	if !ok {
		return 0, nil
	}
	// SeatsLeft keeps seats back for those waiting; the seats to offer are
	// all those not taken. Counted under the booking lock, so the seat rule
	// never refuses one (which would abort the transaction on PostgreSQL).
	free := e.Seats - e.Taken
	if e.Status != EventStatusScheduled {
		free = 0
	}
	n := 0
	for ; n < free; n++ {
		var w WaitlistEntry
		var key, zone string
		err := tx.QueryRowContext(ctx, `SELECT id, name, email, email_normalized, time_zone FROM booking_waitlist WHERE event_id = $1 AND status = 'waiting'
			ORDER BY created_at, id LIMIT 1`, eventID).Scan(&w.ID, &w.Name, &w.Email, &key, &zone)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("next in line: %w", err)
		}
		// Someone in line who has a seat of this date meanwhile (one seat
		// per address) leaves the line instead of taking a second.
		var has int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bookings WHERE event_id = $1 AND email_normalized = $2
			AND status IN `+blockingSQL+` AND (status <> 'held' OR expires_at > $3)`, eventID, key, store.At(now)).Scan(&has); err != nil {
			return n, fmt.Errorf("next in line: %w", err)
		}
		if has > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE booking_waitlist SET status = 'closed' WHERE id = $1`, w.ID); err != nil {
				return n, fmt.Errorf("next in line: %w", err)
			}
			n--
			continue
		}
		token, offerHash := newToken()
		_, holdHash := newToken() // the seat's manage token is minted when it is paid for
		// The offer and the seat's booking give times in the zone the page
		// gave when they joined.
		c := &checked{typ: t, name: w.Name, email: w.Email, key: key, zone: zone}
		id := store.NewID()
		err = s.insertBooking(ctx, tx, st, c, Request{ClientAddr: "waitlist"}, newRow{
			id: id, status: StatusHeld, hash: holdHash, start: e.Start, end: e.End, blocked: span{e.Start, e.End}, eventID: e.ID,
		}, now)
		if seatRefused(err) {
			break // the seat went meanwhile: the next pass tries again
		}
		if err != nil {
			return n, err
		}
		until := now.Add(OfferTTL)
		if _, err := tx.ExecContext(ctx, `UPDATE bookings SET expires_at = $1 WHERE id = $2`, store.At(until), id); err != nil {
			return n, fmt.Errorf("hold the offered seat: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE booking_waitlist SET status = 'offered', booking_id = $1, offer_token_hash = $2,
			offered_at = $3, offer_expires_at = $4 WHERE id = $5 AND status = 'waiting'`,
			id, offerHash, store.At(now), store.At(until), w.ID); err != nil {
			return n, fmt.Errorf("record the offer: %w", err)
		}
		link := s.baseURL + "/book/" + url.PathEscape(e.Type) + "?offer=" + url.QueryEscape(token)
		if _, err := mail.Enqueue(ctx, tx, mail.Compose(mail.Content{
			To: w.Email, Subject: "A seat is free: " + s.typeName(e.Type) + " on " + dateOnly(e.Start, zone),
			Heading: "A seat came free for you",
			Paragraphs: []string{
				"A seat of the " + s.typeName(e.Type) + " of " + When(e.Start, zone) + " came free, and you are first in line.",
				"It is held for you until " + When(until, zone) + ". Take it with the button below; after that it goes to the next person waiting.",
			},
			Button: &mail.Link{Label: "Take the seat", URL: link},
			Footer: "You received this because this address joined the wait list of this date on " + s.baseURL + ".",
		})); err != nil {
			return n, err
		}
	}
	return n, nil
}

// offerOf finds the live offer a link's token opens; 404 otherwise.
func (s *Service) offerOf(ctx context.Context, token string) (*WaitlistEntry, *Booking, error) {
	gone := errs.New(errs.NotFound, "This offer has ended or does not exist. If the date still has a wait list, the seat went to the next in line.")
	if len(token) < 20 || len(token) > 100 {
		return nil, nil, gone
	}
	w, err := scanWaitlist(s.db.Read.QueryRowContext(ctx, `SELECT `+waitlistColumns+` FROM booking_waitlist
		WHERE offer_token_hash = $1 AND status = 'offered'`, hashToken(token)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, gone
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read an offer: %w", err)
	}
	b, err := s.Get(ctx, w.BookingID)
	if err != nil {
		return nil, nil, err
	}
	if b.Status != StatusHeld || b.ExpiresAt == nil || !b.ExpiresAt.After(s.now()) {
		return nil, nil, gone
	}
	return w, b, nil
}

// ShowOffer is the offer a link opens: the date and until when it is held.
func (s *Service) ShowOffer(ctx context.Context, token string) (*Offer, error) {
	w, b, err := s.offerOf(ctx, token)
	if err != nil {
		return nil, err
	}
	e, err := s.Event(ctx, w.EventID)
	if err != nil {
		return nil, err
	}
	return &Offer{Event: *e, Name: w.Name, ExpiresAt: *b.ExpiresAt}, nil
}

// TakeOffer opens Checkout for an offered seat and returns where to pay;
// the hold keeps its expiry (Checkout closes with it, or 31 minutes from
// now when less remains, and a late payment is settled as any other). The
// same link pressed twice goes to the same Checkout.
func (s *Service) TakeOffer(ctx context.Context, token string) (string, error) {
	_, b, err := s.offerOf(ctx, token)
	if err != nil {
		return "", err
	}
	if b.CheckoutURL != "" {
		return b.CheckoutURL, nil
	}
	if s.pay == nil {
		return "", errs.New(errs.BillingUnavailable, "Online payment is not available right now. Please write to the owner to take this seat.")
	}
	ret, retHash := newToken()
	expires := *b.ExpiresAt
	if min := s.now().Add(CheckoutTTL); expires.Before(min) {
		expires = min
	}
	opened, err := s.pay.OpenPaymentCheckout(ctx, billing.PaymentCheckout{
		Reference: b.ID, Description: s.typeName(b.Type) + ", " + When(b.Start, b.TimeZone),
		Amount: b.Amount, Currency: b.Currency, Email: b.Email, AllowPromotionCodes: true, ExpiresAt: expires,
		SuccessURL:     s.baseURL + "/bookings/" + b.ID + "/paid?r=" + ret,
		CancelURL:      s.baseURL + "/bookings/" + b.ID + "/checkout-cancelled?r=" + ret,
		IdempotencyKey: "booking-offer-checkout-" + b.ID,
	})
	if err != nil {
		s.log.ErrorContext(ctx, "booking: open Checkout for an offered seat", "booking", b.ID, "err", err)
		return "", errPaymentDown()
	}
	got, err := s.AttachCheckout(ctx, b.ID, opened.ID, opened.URL, retHash)
	if err != nil {
		return "", err
	}
	return got.CheckoutURL, nil
}

// seatsKeptForWaitlist refuses a new seat (sold out) when the date's free
// seats are all kept for people on its wait list.
func seatsKeptForWaitlist(ctx context.Context, tx *sql.Tx, eventID string, now time.Time) error {
	var seats, taken, waiting int
	err := tx.QueryRowContext(ctx, `SELECT e.seats,
		    (SELECT COUNT(*) FROM bookings b WHERE b.event_id = e.id AND b.status IN `+blockingSQL+`
		       AND (b.status <> 'held' OR b.expires_at > $2)), `+waitingSQL+`
		  FROM booking_events e WHERE e.id = $1`, eventID, store.At(now)).Scan(&seats, &taken, &waiting)
	if err != nil {
		return fmt.Errorf("count seats kept for the wait list: %w", err)
	}
	if waiting > 0 && seats-taken <= waiting {
		return errSoldOut
	}
	return nil
}
