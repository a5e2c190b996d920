package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/clock"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// HoldTTL is how long a hold keeps its slot while the booker pays: short,
// so a hold never paid gives its time back soon. Stripe wants a Checkout
// Session's expires_at at least 30 minutes after its creation, so the
// session is opened for CheckoutTTL and closed at Stripe by the sweep once
// its hold lapses (CloseLapsedCheckouts); a payment that still slips
// through is a late payment, checked like a new booking or refunded.
const (
	HoldTTL     = 15 * time.Minute
	CheckoutTTL = 31 * time.Minute
)

// The abuse limits: open holds and requests per e-mail address and per
// client address, so nobody can squat a week of slots.
const (
	MaxOpenPerEmail  = 3
	MaxOpenPerClient = 5
	// A hold that lapses is not renewed by holding again: one e-mail
	// address may start MaxHoldStartsPerEmail unpaid holds, one client
	// (an IPv4 address or an IPv6 /64) MaxHoldStartsPerClient, within
	// HoldStartWindow.
	MaxHoldStartsPerEmail  = 4
	MaxHoldStartsPerClient = 8
	HoldStartWindow        = 24 * time.Hour
	// HoldsAlertAt open holds at once warn the owner (Admin → Booking): an
	// owner's calls are booked a few a day, not ten in half an hour.
	HoldsAlertAt   = 10
	MaxReschedules = 2
	MaxNotes       = 2000
	maxRangeDays   = 62
)

// Config is what a Service is made from.
type Config struct {
	Site       *content.Site
	OwnerEmail string // the default owner address: the first of TRIBE_ADMIN_EMAILS
	BaseURL    string // TRIBE_BASE_URL: invitation UIDs are unique under its host
	// Payments is true when online payment is on: a paid type is then held
	// for Checkout (WithPayments gives the Stripe calls); otherwise it
	// becomes a request the owner confirms.
	Payments bool
}

// Service is the booking domain over one database.
type Service struct {
	db       *store.DB
	now      clock.Clock
	types    []Type
	byID     map[string]Type
	packages []Package // session packages on sale (credits.go)
	defaults Settings
	baseURL  string
	payments bool
	pay      Payments                                    // Stripe, when payments are on
	onChange func(ctx context.Context, bookingID string) // live updates, after a change commits
	log      *slog.Logger
	cal      calendarConfig // the owner's own calendars (calendars.go)
	brief    briefConfig    // the owner's brief before each session (brief.go)
}

// Payments is what booking needs of Stripe: billing's one-time Checkout,
// its expiry and refunds, on the process's one Stripe client.
type Payments interface {
	OpenPaymentCheckout(ctx context.Context, p billing.PaymentCheckout) (billing.OpenedCheckout, error)
	ExpireCheckout(ctx context.Context, sessionID string) error
	Refund(ctx context.Context, paymentIntentID string, amount int64, idempotencyKey string) (billing.StripeRefund, error)
	Refunds(ctx context.Context, paymentIntentID string) ([]billing.StripeRefund, error)
}

// WithPayments gives the service Stripe; Config.Payments says whether paid
// types are held for it.
func WithPayments(p Payments) Option { return func(s *Service) { s.pay = p } }

// WithChangeNotice sets what is told, after the commit, that a booking
// changed (the live-update hub, so an open booking page refreshes).
func WithChangeNotice(f func(ctx context.Context, bookingID string)) Option {
	return func(s *Service) { s.onChange = f }
}

// WithLogger sets where failures that do not fail a call are logged.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// announce tells whoever listens that a booking changed.
func (s *Service) announce(ctx context.Context, id string) {
	if s.onChange != nil {
		s.onChange(ctx, id)
	}
}

// Option changes a Service.
type Option func(*Service)

// WithClock replaces time.Now (tests).
func WithClock(c clock.Clock) Option { return func(s *Service) { s.now = c } }

// New makes the booking service.
func New(db *store.DB, cfg Config, opts ...Option) *Service {
	s := &Service{
		db: db, now: time.Now, types: TypesFrom(cfg.Site), byID: map[string]Type{},
		defaults: DefaultSettings(cfg.Site, cfg.OwnerEmail), baseURL: cfg.BaseURL, payments: cfg.Payments,
		log: slog.Default(),
	}
	for _, t := range s.types {
		s.byID[t.ID] = t
	}
	s.packages = packagesFrom(cfg.Site, s.byID)
	for _, o := range opts {
		o(s)
	}
	return s
}

// Types lists the bookable types, native and external, in content order.
func (s *Service) Types() []Type { return append([]Type(nil), s.types...) }

// nativeType returns the natively booked type id names, or a field error.
func (s *Service) nativeType(id string) (Type, error) {
	t, ok := s.byID[strings.TrimSpace(id)]
	switch {
	case !ok:
		return Type{}, errs.Field("type", "There is no booking type with that name.")
	case t.Mode != ModeNative:
		return Type{}, errs.Field("type", "This session is booked on an external scheduling page.")
	}
	return t, nil
}

// newToken returns a manage token for a booking's links and its SHA-256
// hash, the only form stored.
func newToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// notFoundBooking is the one answer for an unknown booking and a wrong
// token alike, so a link reveals nothing about bookings it does not open.
var notFoundBooking = errs.New(errs.NotFound, "This booking link is not valid. Please use the link in your latest booking e-mail.")

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*errs.Error); ok {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}
