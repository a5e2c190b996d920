package booking

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"tribe/internal/auth"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/mailaddr"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// The statuses a booking moves through.
const (
	StatusHeld      = "held"      // waiting for payment until ExpiresAt; blocks its time
	StatusRequested = "requested" // payments off: waiting for the owner; blocks its time
	StatusConfirmed = "confirmed" // paid, free, or confirmed by the owner; blocks its time
	StatusCancelled = "cancelled" // by the booker or the owner
	StatusExpired   = "expired"   // a hold that lapsed unpaid
	StatusDeclined  = "declined"  // a request the owner refused
	StatusCompleted = "completed" // the call took place
	StatusNoShow    = "no_show"   // the booker did not come
)

// Booking is one booking as stored.
type Booking struct {
	ID         string     `json:"id"`
	Type       string     `json:"type"`
	Status     string     `json:"status"`
	Start      time.Time  `json:"start"`
	End        time.Time  `json:"end"`
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
	Name       string     `json:"name"`
	Email      string     `json:"email"`
	Notes      string     `json:"notes"`
	TimeZone   string     `json:"time_zone"`
	UserID     string     `json:"-"`
	ClientAddr string     `json:"-"`
	Amount     int64      `json:"amount"` // smallest currency unit
	Currency   string     `json:"currency"`
	Refunded   int64      `json:"refunded"` // smallest currency unit
	// Discount is what a promotion code took off Amount at Checkout: the
	// booking paid Amount - Discount (Paid).
	Discount          int64      `json:"discount"`
	CheckoutSessionID string     `json:"-"`
	CheckoutURL       string     `json:"-"`
	PaymentIntentID   string     `json:"-"`
	PaidAt            *time.Time `json:"paid_at,omitempty"`
	MeetingLink       string     `json:"meeting_link,omitempty"`
	RescheduleCount   int        `json:"reschedule_count"`
	ICSSequence       int        `json:"-"`
	CancelledBy       string     `json:"cancelled_by,omitempty"`
	EventID           string     `json:"event_id,omitempty"` // a seat of this occurrence (events.go)
	Credit            bool       `json:"credit,omitempty"`   // paid with a package's credit (credits.go)
	CreatedAt         time.Time  `json:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at"`
	tokenHash         string
}

const bookingColumns = `id, type_id, status, start_at, end_at, expires_at, name, email, notes, time_zone,
	COALESCE(user_id, ''), client_addr, amount, currency, discount,
	(SELECT CAST(COALESCE(SUM(r.amount), 0) AS BIGINT) FROM booking_refunds r WHERE r.booking_id = bookings.id),
	COALESCE(checkout_session_id, ''), COALESCE(checkout_url, ''), COALESCE(payment_intent_id, ''), paid_at,
	meeting_link, reschedule_count, ics_sequence, COALESCE(cancelled_by, ''), COALESCE(event_id, ''), created_at, updated_at, token_hash,
	(SELECT COUNT(*) FROM credit_uses cu WHERE cu.booking_id = bookings.id)`

func scanBooking(row interface{ Scan(...any) error }) (*Booking, error) {
	var (
		b                    Booking
		start, end, cre, upd store.Time
		expires, paid        store.NullTime
		credits              int
	)
	err := row.Scan(&b.ID, &b.Type, &b.Status, &start, &end, &expires, &b.Name, &b.Email, &b.Notes, &b.TimeZone,
		&b.UserID, &b.ClientAddr, &b.Amount, &b.Currency, &b.Discount, &b.Refunded,
		&b.CheckoutSessionID, &b.CheckoutURL, &b.PaymentIntentID, &paid,
		&b.MeetingLink, &b.RescheduleCount, &b.ICSSequence, &b.CancelledBy, &b.EventID, &cre, &upd, &b.tokenHash, &credits)
	if err != nil {
		return nil, err
	}
	b.Start, b.End, b.CreatedAt, b.UpdatedAt = start.Time, end.Time, cre.Time, upd.Time
	b.Credit = credits > 0
	if expires.Valid {
		t := expires.Time.Time
		b.ExpiresAt = &t
	}
	if paid.Valid {
		t := paid.Time.Time
		b.PaidAt = &t
	}
	return &b, nil
}

// loadBooking reads one booking through q (a transaction's or the reader's).
func loadBooking(ctx context.Context, q func(context.Context, string, ...any) *sql.Row, id string) (*Booking, error) {
	b, err := scanBooking(q(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.NotFound, "There is no such booking.")
	}
	if err != nil {
		return nil, fmt.Errorf("read booking %s: %w", id, err)
	}
	return b, nil
}

// Paid is what the booking's payment took (or takes): its price less a
// promotion code's discount.
func (b *Booking) Paid() int64 { return b.Amount - b.Discount }

// Get returns one booking (admins).
func (s *Service) Get(ctx context.Context, id string) (*Booking, error) {
	return loadBooking(ctx, s.db.Read.QueryRowContext, id)
}

// errSlotTaken is the answer when the database refuses a booking's time.
var errSlotTaken = errs.New(errs.SlotTaken, "Sorry, that time was just taken. Please choose another time.")

// isOverlap reports whether err is the database refusing overlapping
// bookings: PostgreSQL's exclusion violation, SQLite's trigger.
func isOverlap(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23P01" && pg.ConstraintName == "bookings_no_overlap"
	}
	return err != nil && strings.Contains(err.Error(), "bookings_no_overlap")
}

// write runs fn in one write transaction that first marks lapsed holds
// expired, so that the overlap rule only ever weighs live holds. On
// PostgreSQL the transaction also takes the booking lock, which makes the
// counted rules (the daily maximum, the per-address limits) exact as they
// are on SQLite, whose writers already run one at a time. The overlap rule
// does not depend on the lock: the constraint holds without it.
func (s *Service) write(ctx context.Context, now time.Time, fn func(tx *sql.Tx) error) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if s.db.Dialect == store.Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tribe.booking:' || current_schema()))`); err != nil {
				return fmt.Errorf("take booking lock: %w", err)
			}
		}
		if _, err := expireLapsed(ctx, tx, now); err != nil {
			return err
		}
		return fn(tx)
	})
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// expireLapsed marks every hold past its expiry expired. One statement,
// naturally idempotent: run at once by two instances, each hold changes
// once and the second run finds nothing.
func expireLapsed(ctx context.Context, q execer, now time.Time) (int64, error) {
	res, err := q.ExecContext(ctx, `UPDATE bookings SET status = 'expired', updated_at = $1
		WHERE status = 'held' AND expires_at <= $1`, store.At(now))
	if err != nil {
		return 0, fmt.Errorf("expire lapsed holds: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("expire lapsed holds: %w", err)
	}
	return n, nil
}

// SweepExpired marks lapsed holds expired and returns how many it marked;
// the worker loop calls it on every instance.
func (s *Service) SweepExpired(ctx context.Context) (int64, error) {
	return expireLapsed(ctx, s.db.Write, s.now())
}

// Request is what a visitor sends to book.
type Request struct {
	Type       string `json:"type"`
	EventID    string `json:"event_id"` // the occurrence, for a seated type
	Start      string `json:"start"`    // RFC 3339
	Name       string `json:"name"`
	Email      string `json:"email"`
	Notes      string `json:"notes"`
	TimeZone   string `json:"time_zone"` // the booker's, for their mails
	ClientAddr string `json:"-"`         // the client's address, for the per-address limit
	UserID     string `json:"-"`         // the signed-in member, if any
	// HoldKey is the secret of the browser that presses (its hold cookie):
	// a repeated press gets an open hold back only with the same secret,
	// so a stranger who types someone's address never gets a manage token.
	HoldKey string `json:"-"`
	// UseCredit pays with a package's credit instead of Checkout: the
	// signed-in member's (UserID) or, with CreditToken (the credits mail's
	// link), those of the address the token was sent to (credits.go).
	UseCredit   bool   `json:"use_credit"`
	CreditToken string `json:"-"`
}

// Created is a new booking with its manage token, which is shown once: only
// its hash is stored.
type Created struct {
	Booking *Booking
	Token   string
	// Reused is true when the same browser's open hold on the same time
	// was returned instead (a double click): Token is a new token that
	// opens it besides the first one, and its Checkout Session is the one
	// to send them to.
	Reused bool
	// CheckoutURL is where a held booking is paid (Reserve).
	CheckoutURL string
}

// checked is a Request read and checked.
type checked struct {
	typ              Type
	start            time.Time
	name, email, key string
	notes, zone      string
	amount           int64 // what the booker pays: the type's price, or its member price (priceFor)
}

func (s *Service) check(in Request) (*checked, error) {
	t, err := s.nativeType(in.Type)
	if err != nil {
		return nil, err
	}
	c := &checked{typ: t, name: strings.TrimSpace(in.Name), notes: strings.TrimSpace(in.Notes), zone: strings.TrimSpace(in.TimeZone),
		amount: t.Price}
	// A seat's time is its occurrence's: a start sent with it is not read.
	if !t.Seated() {
		if c.start, err = parseStart(in.Start); err != nil {
			return nil, err
		}
	}
	switch {
	case c.name == "" || !printable(c.name):
		return nil, errs.Field("name", "Please enter your full name.")
	case utf8.RuneCountInString(c.name) > 120:
		return nil, errs.Field("name", "Full name must be at most 120 characters.")
	}
	// The site's one rule for names people see (direction overrides,
	// invisible-only names).
	if _, err := auth.CheckName("name", "Full name", 120, c.name); err != nil {
		return nil, err
	}
	addr, err := mailaddr.Parse(in.Email)
	if err != nil {
		return nil, errs.Field("email", err.Error())
	}
	c.email, c.key = addr.Mailbox, addr.Key
	if !utf8.ValidString(c.notes) || strings.ContainsRune(c.notes, 0) {
		return nil, errs.Field("notes", "The notes contain characters that cannot be stored.")
	}
	if utf8.RuneCountInString(c.notes) > MaxNotes {
		return nil, errs.Field("notes", fmt.Sprintf("Notes must be at most %d characters.", MaxNotes))
	}
	if _, err := content.LoadZone(c.zone); err != nil {
		return nil, errs.Field("time_zone", "Time zone must be an IANA name such as Europe/Paris.")
	}
	return c, nil
}

func parseStart(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, errs.Field("start", "Start must be a time such as 2026-03-02T15:00:00+01:00.")
	}
	return t.UTC(), nil
}

// checkStart refuses a start that the owner's rules do not offer.
func (r *rules) checkStart(start, now time.Time, d time.Duration) error {
	switch {
	case !start.After(now):
		return errs.Field("start", "That time has passed. Please choose a later time.")
	case start.Before(now.Add(r.notice)):
		return errs.Field("start", "Bookings need at least "+minutesText(int(r.notice/time.Minute))+" of notice. Please choose a later time.")
	case !start.Before(now.Add(r.window)):
		return errs.Field("start", fmt.Sprintf("Bookings open at most %d days ahead. Please choose an earlier time.", int(r.window/(24*time.Hour))))
	}
	offered := false
	r.eachStart(start, start.Add(time.Nanosecond), d, func(time.Time, string) { offered = true })
	if !offered {
		return errs.Field("start", "That time is not one of the offered times. Please choose a time from the calendar.")
	}
	return nil
}

// minutesText writes a duration of whole minutes for a sentence.
func minutesText(m int) string {
	switch {
	case m%(24*60) == 0 && m >= 24*60:
		return plural(m/(24*60), "day")
	case m%60 == 0 && m >= 60:
		return plural(m/60, "hour")
	}
	return plural(m, "minute")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// Book books a native type: a free type is confirmed at once, a paid one
// is held for payment (payments on) or becomes a request the owner
// confirms (payments off). The database refuses a time that another held,
// requested or confirmed booking takes (slot_taken).
func (s *Service) Book(ctx context.Context, in Request) (*Created, error) {
	c, err := s.check(in)
	if err != nil {
		return nil, err
	}
	// The price is the server's to decide: a signed-in tribe member pays
	// the member price, everyone else the type's.
	if c.amount, err = s.priceFor(ctx, c.typ, in.UserID); err != nil {
		return nil, err
	}
	if c.typ.Seated() || strings.TrimSpace(in.EventID) != "" {
		if in.UseCredit {
			return nil, errs.Field("use_credit", "A seat of a group training is paid at booking; credits book one-to-one calls.")
		}
		return s.bookSeat(ctx, c, in)
	}
	st, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	d := time.Duration(c.typ.Minutes) * time.Minute
	if err := r.checkStart(c.start, now, d); err != nil {
		return nil, err
	}
	blocked := r.blocked(c.start, d)
	// Live sessions are read before the transaction: they change a few
	// times a week, and reading them inside would hold a connection while
	// waiting for another.
	live, err := s.liveSessions(ctx, blocked.from, blocked.until, now)
	if err != nil {
		return nil, err
	}
	if !(&calendar{busy: merge(live)}).free(blocked) {
		return nil, errSlotTaken
	}
	status := s.newStatus(c.typ)
	if in.UseCredit {
		// Paid ahead: confirmed at once, nothing to pay now.
		status, c.amount = StatusConfirmed, 0
	}
	token, hash := newToken()
	out := &Created{Token: token}
	id := store.NewID()
	err = s.write(ctx, now, func(tx *sql.Tx) error {
		// A second press of the same button: the same browser, address,
		// type and time as an open hold gets that hold back. Anyone else
		// is told the time is taken, as for any taken time, so typing
		// someone's address opens nothing and says nothing.
		var prev, prevStatus, prevHolder string
		err := tx.QueryRowContext(ctx, `SELECT id, status, hold_key_hash FROM bookings
			WHERE email_normalized = $1 AND type_id = $2 AND start_at = $3 AND status IN `+blockingSQL,
			c.key, c.typ.ID, store.At(c.start)).Scan(&prev, &prevStatus, &prevHolder)
		switch {
		case err == nil && !sameHolder(prevHolder, in.HoldKey):
			return errSlotTaken
		case err == nil && prevStatus == StatusHeld:
			out.Reused, id = true, prev
			return addHoldToken(ctx, tx, hash, prev, now)
		case err == nil:
			return errs.New(errs.Conflict, "You have already booked this time. Your confirmation e-mail has the details.")
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("find a repeated booking: %w", err)
		}
		if err := s.checkLimits(ctx, tx, c.key, in.ClientAddr, status, now); err != nil {
			return err
		}
		// The credit is found, and below spent, in the booking's own
		// transaction: of two bookings racing for the last credit, the
		// second finds none (writers are serialised by the booking lock).
		credit := ""
		if in.UseCredit {
			if credit, err = s.creditFor(ctx, tx, c, in, now); err != nil {
				return err
			}
		}
		if err := eventsFree(ctx, tx, blocked); err != nil {
			return err
		}
		if status == StatusHeld {
			if err := holdCeiling(ctx, tx, r, c.start, blocked, now); err != nil {
				return err
			}
		}
		if r.maxPerDay > 0 {
			cal, err := readCalendar(ctx, tx.QueryContext, r, nil, c.start, c.start.Add(d), now, "")
			if err != nil {
				return err
			}
			if r.dayFull(cal, c.start.In(r.loc).Format(time.DateOnly)) {
				return errs.New(errs.SlotTaken, "Sorry, that day is now fully booked. Please choose another day.")
			}
		}
		err = s.insertBooking(ctx, tx, st, c, in, newRow{
			id: id, status: status, hash: hash,
			start: c.start, end: c.start.Add(d), blocked: blocked, credit: credit,
		}, now)
		if isOverlap(err) {
			return errSlotTaken
		}
		return err
	})
	if err != nil {
		return nil, wrap("book", err)
	}
	if out.Booking, err = s.Get(ctx, id); err != nil {
		return nil, err
	}
	return out, nil
}

// newStatus is where a new booking of t starts: confirmed when free, held
// for payment when payments are on, otherwise a request for the owner.
func (s *Service) newStatus(t Type) string {
	switch {
	case t.Free():
		return StatusConfirmed
	case s.payments:
		return StatusHeld
	}
	return StatusRequested
}

// sameHolder reports whether key is the secret of the browser whose hold
// cookie's hash is stored. No secret, or none stored, is nobody's.
func sameHolder(stored, key string) bool {
	if stored == "" || key == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(stored), []byte(hashToken(key))) == 1
}

// addHoldToken gives a second press of the same button the open hold back
// with a token of its own; the first press's token stays valid (its
// Checkout Session returns with it).
func addHoldToken(ctx context.Context, tx *sql.Tx, hash, bookingID string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO booking_tokens (token_hash, booking_id, created_at) VALUES ($1, $2, $3)`,
		hash, bookingID, store.At(now)); err != nil {
		return fmt.Errorf("add hold token: %w", err)
	}
	return nil
}

// AssistantManageURL is a link that manages booking id for the member
// userID, for their assistant's list (my_bookings): a fresh token marked
// 'assistant' that replaces the one minted before, so reading the list
// again never piles tokens up; the booker's own e-mailed links keep
// working. A booking that is not the member's is not_found, as a wrong link
// is.
func (s *Service) AssistantManageURL(ctx context.Context, id, userID string) (string, error) {
	token, hash := newToken()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bookings WHERE id = $1 AND user_id = $2`, id, userID).Scan(&n); err != nil {
			return fmt.Errorf("find the member's booking: %w", err)
		}
		if n == 0 || userID == "" {
			return notFoundBooking
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM booking_tokens WHERE booking_id = $1 AND purpose = 'assistant'`, id); err != nil {
			return fmt.Errorf("drop the assistant's last link: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO booking_tokens (token_hash, booking_id, created_at, purpose) VALUES ($1, $2, $3, 'assistant')`,
			hash, id, store.At(s.now())); err != nil {
			return fmt.Errorf("add the assistant's link: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return s.ManageURL(id, token), nil
}

// newRow is what a new booking stores beyond the booker's checked input.
type newRow struct {
	id, status, hash string
	start, end       time.Time
	// blocked is the owner's time it takes: the session and its buffers
	// for a one-to-one booking, the session alone for a seat.
	blocked span
	// eventID is the group training date of a seat, empty otherwise.
	eventID string
	// credit is the package purchase whose credit pays for the booking.
	credit string
}

// insertBooking writes a new booking or seat and queues its notices. The
// insert's own error comes back wrapped, so the caller can still tell a
// refusal by the database's rules (isOverlap, seatRefused) from a failure.
func (s *Service) insertBooking(ctx context.Context, tx *sql.Tx, st Settings, c *checked, in Request, r newRow, now time.Time) error {
	var expires store.NullTime
	meeting := ""
	if r.status == StatusHeld {
		expires = store.NullTime{Time: store.At(now.Add(HoldTTL)), Valid: true}
	}
	if r.status == StatusConfirmed {
		var err error
		if meeting, err = roomFor(ctx, tx, st, &Booking{ID: r.id, EventID: r.eventID}); err != nil {
			return err
		}
	}
	var user, event any
	if in.UserID != "" {
		user = in.UserID
	}
	if r.eventID != "" {
		event = r.eventID
	}
	holder := ""
	if in.HoldKey != "" {
		holder = hashToken(in.HoldKey)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO bookings (id, type_id, status, start_at, end_at, blocked_from, blocked_until,
		    expires_at, name, email, email_normalized, notes, time_zone, client_addr, user_id, amount, currency,
		    meeting_link, token_hash, event_id, hold_key_hash, created_at, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $22)`,
		r.id, c.typ.ID, r.status, store.At(r.start), store.At(r.end), store.At(r.blocked.from), store.At(r.blocked.until),
		expires, c.name, c.email, c.key, c.notes, c.zone, clientKey(in.ClientAddr), user, c.amount, c.typ.Currency,
		meeting, r.hash, event, holder, store.At(now))
	if err != nil {
		return fmt.Errorf("insert booking: %w", err)
	}
	if r.credit != "" {
		if err := spendCredit(ctx, tx, r.credit, r.id, now); err != nil {
			return err
		}
	}
	b, err := loadBooking(ctx, tx.QueryRowContext, r.id)
	if err != nil {
		return err
	}
	return s.notify(ctx, tx, &notice{settings: st}, nil, b, now)
}

// clientKey is the client as every per-client limit keys it: an IPv4
// address, or the /64 of an IPv6 one (ratelimit.AddrKey), so one network
// with 2^64 addresses is one client.
func clientKey(addr string) string {
	addr = ratelimit.AddrKey(strings.TrimSpace(addr))
	if len(addr) > 64 {
		addr = addr[:64]
	}
	return addr
}

// checkLimits refuses a new booking to an address with too many open ones
// (live holds and requests still ahead) and, for a hold, to an address
// that started too many unpaid holds within a day: a hold is not renewed
// by booking the same time again once it lapses.
func (s *Service) checkLimits(ctx context.Context, tx *sql.Tx, emailKey, client, status string, now time.Time) error {
	count := func(column, value string) (int, time.Duration, error) {
		var (
			n     int
			first store.NullTime
		)
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(expires_at) FROM bookings
			WHERE `+column+` = $1 AND (status = 'held' OR (status = 'requested' AND start_at > $2))`,
			value, store.At(now)).Scan(&n, &first)
		if err != nil {
			return 0, 0, fmt.Errorf("count open bookings: %w", err)
		}
		retry := time.Hour // requests do not lapse; try again later
		if first.Valid {
			retry = first.Time.Sub(now)
		}
		return n, retry, nil
	}
	// started counts the unpaid holds begun within HoldStartWindow; the
	// answer says when the oldest leaves it.
	started := func(column, value string) (int, time.Duration, error) {
		var (
			n     int
			first store.NullTime
		)
		since := now.Add(-HoldStartWindow)
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(created_at) FROM bookings
			WHERE `+column+` = $1 AND created_at > $2 AND paid_at IS NULL AND expires_at IS NOT NULL`,
			value, store.At(since)).Scan(&n, &first)
		if err != nil {
			return 0, 0, fmt.Errorf("count holds started: %w", err)
		}
		retry := HoldStartWindow
		if first.Valid {
			retry = first.Time.Add(HoldStartWindow).Sub(now)
		}
		return n, retry, nil
	}
	n, retry, err := count("email_normalized", emailKey)
	if err != nil {
		return err
	}
	if n >= MaxOpenPerEmail {
		return errs.New(errs.RateLimited, fmt.Sprintf(
			"This e-mail address already has %d bookings waiting for payment or confirmation. Please finish or cancel one first.", n)).
			After(retry)
	}
	if status == StatusHeld {
		if n, retry, err = started("email_normalized", emailKey); err != nil {
			return err
		}
		if n >= MaxHoldStartsPerEmail {
			return errs.New(errs.RateLimited, errHoldsSpent).After(retry)
		}
	}
	if client = clientKey(client); client == "" {
		return nil
	}
	n, retry, err = count("client_addr", client)
	if err != nil {
		return err
	}
	if n >= MaxOpenPerClient {
		return errs.New(errs.RateLimited,
			"Too many bookings are waiting for payment or confirmation from your network. Please try again later.").
			After(retry)
	}
	if status == StatusHeld {
		if n, retry, err = started("client_addr", client); err != nil {
			return err
		}
		if n >= MaxHoldStartsPerClient {
			return errs.New(errs.RateLimited, errHoldsSpent).After(retry)
		}
	}
	return nil
}

const errHoldsSpent = "Payment was started several times today without finishing, so no more times can be held for now. Please try again tomorrow, or write to us if something went wrong."

// holdCeiling refuses a new hold when unpaid holds already take half of the
// owner's offered time on that day (the owner's date of start), so holds
// that are never paid cannot empty a day: the other half stays bookable
// by someone who pays at once. The first hold of a day is always allowed.
// It runs inside the booking transaction, which serialises new bookings,
// so parallel presses cannot pass it together.
func holdCeiling(ctx context.Context, tx *sql.Tx, r *rules, start time.Time, blocked span, now time.Time) error {
	local := start.In(r.loc)
	date := local.Format(time.DateOnly)
	offered := 0
	for _, h := range r.hours(date, local.Weekday()) {
		offered += h[1] - h[0]
	}
	lo := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, r.loc)
	hi := lo.AddDate(0, 0, 1)
	rows, err := tx.QueryContext(ctx, `SELECT blocked_from, blocked_until FROM bookings
		WHERE status = 'held' AND expires_at > $1 AND event_id IS NULL AND start_at >= $2 AND start_at < $3`,
		store.At(now), store.At(lo), store.At(hi))
	if err != nil {
		return fmt.Errorf("count held time: %w", err)
	}
	defer func() { _ = rows.Close() }()
	held := time.Duration(0)
	for rows.Next() {
		var from, until store.Time
		if err := rows.Scan(&from, &until); err != nil {
			return fmt.Errorf("count held time: %w", err)
		}
		held += until.Sub(from.Time)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("count held time: %w", err)
	}
	if held > 0 && 2*(held+blocked.until.Sub(blocked.from)) > time.Duration(offered)*time.Minute {
		return errs.New(errs.SlotTaken, errDayHeld).After(HoldTTL)
	}
	return nil
}

const errDayHeld = "Sorry, many times on that day are waiting for payment right now. Please choose another day, or try again in a quarter of an hour."

// OpenHolds counts the holds waiting for payment now, for the owner's
// alert (Admin → Booking and /metrics).
func (s *Service) OpenHolds(ctx context.Context) (int, error) {
	var n int
	err := s.db.ReadRow(ctx, `SELECT COUNT(*) FROM bookings WHERE status = 'held' AND expires_at > $1`, store.At(s.now())).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count open holds: %w", err)
	}
	return n, nil
}
