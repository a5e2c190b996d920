package booking

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// TokenLife is how long after a call ends its manage link keeps opening it.
const TokenLife = 30 * 24 * time.Hour

// FindByToken returns the booking a manage link opens. A wrong token, an
// unknown id and a link past its life get the same not_found, and the hash
// comparison takes the same time whatever the token.
func (s *Service) FindByToken(ctx context.Context, id, token string) (*Booking, error) {
	b, err := loadBooking(ctx, s.db.Read.QueryRowContext, id)
	if errs.Is(err, errs.NotFound) {
		return nil, notFoundBooking
	}
	if err != nil {
		return nil, err
	}
	ok, err := tokenOpens(ctx, s.db.Read.QueryRowContext, b, token, s.now())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFoundBooking
	}
	return b, nil
}

// tokenOpens reports whether token opens b: the token given when booking,
// or one mailed since (booking_tokens), while the link lives.
func tokenOpens(ctx context.Context, q func(context.Context, string, ...any) *sql.Row, b *Booking, token string, now time.Time) (bool, error) {
	if !now.Before(b.End.Add(TokenLife)) || token == "" {
		return false, nil
	}
	h := hashToken(token)
	if subtle.ConstantTimeCompare([]byte(h), []byte(b.tokenHash)) == 1 {
		return true, nil
	}
	var n int
	if err := q(ctx, `SELECT COUNT(*) FROM booking_tokens WHERE token_hash = $1 AND booking_id = $2`, h, b.ID).Scan(&n); err != nil {
		return false, fmt.Errorf("check booking token: %w", err)
	}
	return n > 0, nil
}

// issueToken adds a manage token for a mail about b and returns it; the
// token given when booking keeps working.
func issueToken(ctx context.Context, tx *sql.Tx, bookingID string, now time.Time) (string, error) {
	token, hash := newToken()
	if _, err := tx.ExecContext(ctx, `INSERT INTO booking_tokens (token_hash, booking_id, created_at) VALUES ($1, $2, $3)`,
		hash, bookingID, store.At(now)); err != nil {
		return "", fmt.Errorf("issue booking token: %w", err)
	}
	return token, nil
}

// change runs fn on one booking inside a write transaction (lapsed holds
// already marked expired) and returns the booking as it is afterwards.
func (s *Service) change(ctx context.Context, id string, fn func(tx *sql.Tx, b *Booking, now time.Time) error) (*Booking, error) {
	return s.changeNoting(ctx, id, nil, fn)
}

// changeNoting is change with what the mails need read beforehand (nil:
// read the settings now). Nothing inside the write transaction reads
// through the pools: on PostgreSQL every waiting writer holds a connection,
// and a read inside the transaction could wait for one for ever.
func (s *Service) changeNoting(ctx context.Context, id string, n *notice, fn func(tx *sql.Tx, b *Booking, now time.Time) error) (*Booking, error) {
	if n == nil {
		st, _, err := s.settings(ctx)
		if err != nil {
			return nil, err
		}
		n = &notice{settings: st}
	}
	now := s.now()
	changed := false
	err := s.write(ctx, now, func(tx *sql.Tx) error {
		b, err := loadBooking(ctx, tx.QueryRowContext, id)
		if err != nil {
			return err
		}
		before := *b
		if err := fn(tx, b, now); err != nil {
			return err
		}
		after, err := loadBooking(ctx, tx.QueryRowContext, id)
		if err != nil {
			return err
		}
		changed = !after.UpdatedAt.Equal(before.UpdatedAt) || after.Refunded != before.Refunded
		if !changed {
			return nil
		}
		// The mails a change calls for are queued in its transaction:
		// sent once if it commits, never if it does not.
		return s.notify(ctx, tx, n, &before, after, now)
	})
	if err != nil {
		return nil, wrap("change booking "+id, err)
	}
	if changed {
		s.announce(ctx, id)
	}
	return s.Get(ctx, id)
}

// setStatus moves a booking from one of the statuses in from to to.
func setStatus(ctx context.Context, tx *sql.Tx, b *Booking, now time.Time, to string, extra string, args ...any) error {
	q := `UPDATE bookings SET status = $1, updated_at = $2` + extra + ` WHERE id = $3 AND status = $4`
	res, err := tx.ExecContext(ctx, q, append([]any{to, store.At(now), b.ID, b.Status}, args...)...)
	if isOverlap(err) {
		return errSlotTaken
	}
	if seatRefused(err) {
		return errSoldOut
	}
	if err != nil {
		return fmt.Errorf("set booking %s %s: %w", b.ID, to, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("set booking %s %s: changed by someone else", b.ID, to)
	}
	return nil
}

func wrongStatus(b *Booking, action string) error {
	return errs.Errorf(errs.Conflict, "This booking is %s, so it cannot be %s.", statusWords[b.Status], action)
}

var statusWords = map[string]string{
	StatusHeld: "waiting for payment", StatusRequested: "waiting for confirmation", StatusConfirmed: "confirmed",
	StatusCancelled: "cancelled", StatusExpired: "expired", StatusDeclined: "declined",
	StatusCompleted: "completed", StatusNoShow: "marked as a no-show",
}

// AttachCheckout records the Checkout Session that pays a hold, so that a
// double click is sent to the same page and the payment finds its booking.
// returnHash is the hash of the session's one-time return id.
func (s *Service) AttachCheckout(ctx context.Context, id, sessionID, url, returnHash string) (*Booking, error) {
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		switch {
		case b.Status != StatusHeld:
			return wrongStatus(b, "paid")
		case b.CheckoutSessionID == sessionID:
			return nil
		case b.CheckoutSessionID != "":
			return errs.New(errs.Conflict, "This booking already has a payment page.")
		}
		_, err := tx.ExecContext(ctx, `UPDATE bookings SET checkout_session_id = $1, checkout_url = $2, return_hash = $3, updated_at = $4
			WHERE id = $5`, sessionID, url, returnHash, store.At(now), b.ID)
		if err != nil {
			return fmt.Errorf("attach checkout session: %w", err)
		}
		return nil
	})
}

// Payment is a completed Checkout payment for a booking.
type Payment struct {
	BookingID         string
	CheckoutSessionID string
	PaymentIntentID   string
	// Amount is what was paid; Discount what a promotion code took off the
	// price (Amount + Discount is the booking's price).
	Amount   int64
	Discount int64
	Currency string
}

// Refund is money to return through Stripe. IdempotencyKey makes a second
// attempt for the same booking the same refund.
type Refund struct {
	BookingID       string
	PaymentIntentID string
	Amount          int64
	Currency        string
	IdempotencyKey  string
}

// pays reports whether the payment is for the booking's price: paid in
// full, or less what a promotion code took off at Checkout (never more
// than the price).
func (p Payment) pays(b *Booking) bool {
	return p.Discount >= 0 && p.Discount <= b.Amount && p.Amount+p.Discount == b.Amount &&
		strings.EqualFold(p.Currency, b.Currency)
}

// refundDue is what remains to return of what the booking paid.
func refundDue(b *Booking) *Refund {
	if b.PaidAt == nil || b.Paid()-b.Refunded <= 0 {
		return nil
	}
	// The key names what was refunded so far: a retry in the same state is the
	// same refund, while a refund made meanwhile in the dashboard changes the
	// amount owed, and Stripe refuses a key reused with other parameters.
	return &Refund{BookingID: b.ID, PaymentIntentID: b.PaymentIntentID, Amount: b.Paid() - b.Refunded,
		Currency: b.Currency, IdempotencyKey: fmt.Sprintf("booking-refund-%s-%d", b.ID, b.Refunded)}
}

// ConfirmPaid applies a payment. A live hold is confirmed. A hold that
// lapsed before the payment arrived takes its time again through the same
// database rule, if the time is still ahead and free; otherwise, and for a
// booking cancelled meanwhile, the payment is recorded and the whole amount
// is returned as a refund to make. A payment applied twice changes nothing
// the second time.
func (s *Service) ConfirmPaid(ctx context.Context, p Payment) (*Booking, *Refund, error) {
	st, r, err := s.settings(ctx)
	if err != nil {
		return nil, nil, err
	}
	pre, err := s.Get(ctx, p.BookingID)
	if err != nil {
		return nil, nil, err
	}
	blocked := r.blocked(pre.Start, pre.End.Sub(pre.Start))
	live, err := s.liveSessions(ctx, blocked.from, blocked.until, s.now())
	if err != nil {
		return nil, nil, err
	}
	n := &notice{settings: st}
	if lapsed := pre.Status == StatusExpired || (pre.Status == StatusHeld && pre.ExpiresAt != nil && !pre.ExpiresAt.After(s.now())); lapsed && pre.PaidAt == nil {
		// The time may be lost: the apology offers the nearest free times.
		if n.nearest, err = s.nearestFree(ctx, pre.Type, pre.Start, pre.TimeZone, 3); err != nil {
			return nil, nil, err
		}
	}
	b, err := s.changeNoting(ctx, p.BookingID, n, func(tx *sql.Tx, b *Booking, now time.Time) error {
		switch {
		case b.CheckoutSessionID != "" && b.CheckoutSessionID != p.CheckoutSessionID:
			return fmt.Errorf("payment for booking %s came from checkout session %s, not %s", b.ID, p.CheckoutSessionID, b.CheckoutSessionID)
		case !p.pays(b):
			return fmt.Errorf("payment for booking %s is %d (less %d) %s, not %d %s", b.ID, p.Amount, p.Discount, p.Currency, b.Amount, b.Currency)
		case b.PaidAt != nil:
			return nil // applied before
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bookings SET paid_at = $1, payment_intent_id = $2,
			checkout_session_id = $3, discount = $4, updated_at = $1 WHERE id = $5`,
			store.At(now), p.PaymentIntentID, p.CheckoutSessionID, p.Discount, b.ID); err != nil {
			return fmt.Errorf("record payment: %w", err)
		}
		b.Discount = p.Discount
		var room string
		if b.Status == StatusHeld || b.Status == StatusExpired {
			var err error
			if room, err = roomFor(ctx, tx, st, b); err != nil {
				return err
			}
		}
		switch b.Status {
		case StatusHeld:
			return setStatus(ctx, tx, b, now, StatusConfirmed, `, meeting_link = $5, ics_sequence = 0`, room)
		case StatusExpired:
			free, err := retakeAllowed(ctx, tx, r, b, live, now)
			if err != nil || !free {
				return err
			}
			_, err = retake(ctx, tx, b, now, room)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Money for a booking that did not end up confirmed goes back, and a
	// replay returns what is still owed (the idempotency key keeps it one
	// refund), so a payment never stays without a booking or a refund.
	switch b.Status {
	case StatusConfirmed, StatusCompleted, StatusNoShow:
		return b, nil, nil
	}
	return b, refundDue(b), nil
}

// retakeAllowed runs the checks of a new booking on a lapsed hold whose
// payment arrived late: its time must still be ahead, and for a one-to-one
// call free of the owner's calendars and live sessions (live), of group
// dates scheduled meanwhile, and within the daily maximum. The database's
// rules (overlap, seats) are checked by retake itself. A seat needs its
// date still scheduled at the seat's time.
func retakeAllowed(ctx context.Context, tx *sql.Tx, r *rules, b *Booking, live []span, now time.Time) (bool, error) {
	if !b.Start.After(now) {
		return false, nil
	}
	if b.EventID != "" {
		var n int
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM booking_events WHERE id = $1 AND status = 'scheduled' AND start_at = $2`,
			b.EventID, store.At(b.Start)).Scan(&n)
		if err != nil {
			return false, fmt.Errorf("retake seat: %w", err)
		}
		return n == 1, nil
	}
	blocked := r.blocked(b.Start, b.End.Sub(b.Start))
	if !(&calendar{busy: merge(live)}).free(blocked) {
		return false, nil
	}
	if err := eventsFree(ctx, tx, blocked); errs.Is(err, errs.SlotTaken) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if r.maxPerDay > 0 {
		cal, err := readCalendar(ctx, tx.QueryContext, r, nil, b.Start, b.End, now, b.ID)
		if err != nil {
			return false, err
		}
		if r.dayFull(cal, b.Start.In(r.loc).Format(time.DateOnly)) {
			return false, nil
		}
	}
	return true, nil
}

// retake confirms a lapsed hold if the database lets it have its time again;
// a savepoint keeps the transaction usable when it does not.
func retake(ctx context.Context, tx *sql.Tx, b *Booking, now time.Time, meeting string) (bool, error) {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT retake`); err != nil {
		return false, fmt.Errorf("retake slot: %w", err)
	}
	err := setStatus(ctx, tx, b, now, StatusConfirmed, `, meeting_link = $5, ics_sequence = 0, expires_at = NULL`, meeting)
	if errs.Is(err, errs.SlotTaken) || errs.Is(err, errs.SoldOut) {
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT retake`); err != nil {
			return false, fmt.Errorf("retake slot: %w", err)
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT retake`); err != nil {
		return false, fmt.Errorf("retake slot: %w", err)
	}
	return true, nil
}

// RecordRefund records money returned for a booking. The same Stripe
// refund recorded twice is kept once.
func (s *Service) RecordRefund(ctx context.Context, bookingID, stripeRefundID string, amount int64) (*Booking, error) {
	return s.change(ctx, bookingID, func(tx *sql.Tx, b *Booking, now time.Time) error {
		var seen int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM booking_refunds WHERE stripe_refund_id = $1`, stripeRefundID).Scan(&seen); err != nil {
			return fmt.Errorf("find refund: %w", err)
		}
		if seen > 0 {
			return nil
		}
		if due := refundDue(b); amount <= 0 || due == nil || amount > due.Amount {
			return fmt.Errorf("refund %s of %d for booking %s exceeds what it paid", stripeRefundID, amount, b.ID)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO booking_refunds (id, booking_id, stripe_refund_id, amount, currency, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, store.NewID(), b.ID, stripeRefundID, amount, b.Currency, store.At(now))
		if err != nil {
			return fmt.Errorf("record refund: %w", err)
		}
		return nil
	})
}

// Expire ends a hold at once (the booker left Checkout, or Stripe expired
// the session) and frees its time. Anything but a hold is left as it is.
func (s *Service) Expire(ctx context.Context, id string) (*Booking, error) {
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		if b.Status != StatusHeld {
			return nil
		}
		return setStatus(ctx, tx, b, now, StatusExpired, "")
	})
}

// ConfirmRequest confirms a request (owner, payments off).
func (s *Service) ConfirmRequest(ctx context.Context, id string) (*Booking, error) {
	st, _, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		switch {
		case b.Status != StatusRequested:
			return wrongStatus(b, "confirmed")
		case !b.Start.After(now):
			return errs.New(errs.Conflict, "This request's time has passed; decline it instead.")
		}
		room, err := roomFor(ctx, tx, st, b)
		if err != nil {
			return err
		}
		return setStatus(ctx, tx, b, now, StatusConfirmed, `, meeting_link = $5, ics_sequence = 0`, room)
	})
}

// Decline refuses a request (owner) and frees its time.
func (s *Service) Decline(ctx context.Context, id string) (*Booking, error) {
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		if b.Status != StatusRequested {
			return wrongStatus(b, "declined")
		}
		return setStatus(ctx, tx, b, now, StatusDeclined, "")
	})
}

// CancelByOwner cancels a held, requested or confirmed booking at any time
// and returns the refund to make: always everything paid.
func (s *Service) CancelByOwner(ctx context.Context, id string) (*Booking, *Refund, error) {
	return s.cancel(ctx, id, "", "owner")
}

// CancelByBooker cancels through a manage link, before the cut-off, and
// returns the refund to make: everything paid.
func (s *Service) CancelByBooker(ctx context.Context, id, token string) (*Booking, *Refund, error) {
	return s.cancel(ctx, id, token, "booker")
}

func (s *Service) cancel(ctx context.Context, id, token, by string) (*Booking, *Refund, error) {
	st, r, err := s.settings(ctx)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		if by == "booker" {
			ok, err := tokenOpens(ctx, tx.QueryRowContext, b, token, now)
			if err != nil {
				return err
			}
			if !ok {
				return notFoundBooking
			}
			if err := beforeCutoff(b, r, now, st); err != nil {
				return err
			}
		}
		switch b.Status {
		case StatusHeld, StatusRequested, StatusConfirmed:
		default:
			return wrongStatus(b, "cancelled")
		}
		if err := setStatus(ctx, tx, b, now, StatusCancelled, `, cancelled_by = $5, ics_sequence = $6`, by, nextSequence(b)); err != nil {
			return err
		}
		// A call paid with a credit gives it back, as a paid one gives the
		// money back: the booker only before the cut-off (checked above),
		// the owner at any time.
		return returnCredit(ctx, tx, b.ID, now)
	})
	if err != nil {
		return nil, nil, err
	}
	return b, refundDue(b), nil
}

// nextSequence is the calendar sequence a change of b sends: one more
// than the invitation a confirmed booking's attendee already has, so their
// calendar takes the update (or the cancellation); unchanged otherwise.
func nextSequence(b *Booking) int {
	if b.Status == StatusConfirmed {
		return b.ICSSequence + 1
	}
	return b.ICSSequence
}

// beforeCutoff refuses a change online once the call is closer than the
// cut-off.
func beforeCutoff(b *Booking, r *rules, now time.Time, st Settings) error {
	if now.Before(b.Start.Add(-r.cutoff)) {
		return nil
	}
	return errs.New(errs.Conflict, fmt.Sprintf(
		"This session starts in less than %s and can no longer be changed online. Please write to %s.",
		minutesText(int(r.cutoff/time.Minute)), st.OwnerEmail))
}

// Reschedule moves a booking to another free time through its manage link:
// before the cut-off, at most twice, under the same database rule as a new
// booking. A confirmed booking's invitation gets the next sequence number.
func (s *Service) Reschedule(ctx context.Context, id, token, newStart string) (*Booking, error) {
	start, err := parseStart(newStart)
	if err != nil {
		return nil, err
	}
	st, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	pre, err := s.FindByToken(ctx, id, token)
	if err != nil {
		return nil, err
	}
	d := pre.End.Sub(pre.Start)
	blocked := r.blocked(start, d)
	live, err := s.liveSessions(ctx, blocked.from, blocked.until, s.now())
	if err != nil {
		return nil, err
	}
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		ok, err := tokenOpens(ctx, tx.QueryRowContext, b, token, now)
		switch {
		case err != nil:
			return err
		case !ok:
			return notFoundBooking
		case b.EventID != "":
			return errs.New(errs.Conflict, "A seat in a group training cannot be moved to another time. Cancel it before the cut-off and book a seat on another date.")
		case b.Status != StatusConfirmed && b.Status != StatusRequested:
			return wrongStatus(b, "moved")
		case b.RescheduleCount >= MaxReschedules:
			return errs.New(errs.Conflict, fmt.Sprintf(
				"This booking has been moved %d times, the most allowed online. Please write to %s.", MaxReschedules, st.OwnerEmail))
		case start.Equal(b.Start):
			return errs.Field("start", "That is already this booking's time.")
		}
		if err := beforeCutoff(b, r, now, st); err != nil {
			return err
		}
		if err := r.checkStart(start, now, d); err != nil {
			return err
		}
		if !(&calendar{busy: merge(live)}).free(blocked) {
			return errSlotTaken
		}
		if err := eventsFree(ctx, tx, blocked); err != nil {
			return err
		}
		if r.maxPerDay > 0 {
			cal, err := readCalendar(ctx, tx.QueryContext, r, nil, start, start.Add(d), now, b.ID)
			if err != nil {
				return err
			}
			if r.dayFull(cal, start.In(r.loc).Format(time.DateOnly)) {
				return errs.New(errs.SlotTaken, "Sorry, that day is now fully booked. Please choose another day.")
			}
		}
		seq := nextSequence(b)
		res, err := tx.ExecContext(ctx, `UPDATE bookings SET start_at = $1, end_at = $2, blocked_from = $3, blocked_until = $4,
			reschedule_count = reschedule_count + 1, ics_sequence = $5, updated_at = $6 WHERE id = $7 AND status = $8`,
			store.At(start), store.At(start.Add(d)), store.At(blocked.from), store.At(blocked.until), seq, store.At(now), b.ID, b.Status)
		if isOverlap(err) {
			return errSlotTaken
		}
		if err != nil {
			return fmt.Errorf("move booking: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("move booking %s: changed by someone else", b.ID)
		}
		return nil
	})
}

// Complete marks a confirmed call that has started as having taken place.
func (s *Service) Complete(ctx context.Context, id string) (*Booking, error) {
	return s.afterStart(ctx, id, StatusCompleted, "marked completed")
}

// NoShow marks a confirmed call that has started as missed by the booker.
func (s *Service) NoShow(ctx context.Context, id string) (*Booking, error) {
	return s.afterStart(ctx, id, StatusNoShow, "marked as a no-show")
}

func (s *Service) afterStart(ctx context.Context, id, to, action string) (*Booking, error) {
	return s.change(ctx, id, func(tx *sql.Tx, b *Booking, now time.Time) error {
		switch {
		case b.Status != StatusConfirmed:
			return wrongStatus(b, action)
		case now.Before(b.Start):
			return errs.New(errs.Conflict, "This call has not started yet.")
		}
		return setStatus(ctx, tx, b, now, to, "")
	})
}
