package billing

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v86"
	"golang.org/x/sync/singleflight"

	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// CheckoutTTL is how long a Checkout Session stays open, and so how long it
// holds a seat. Stripe accepts 30 minutes to 24 hours after the session is
// created; the extra minute keeps a slow request or a clock a little behind
// Stripe's from falling under the 30-minute minimum.
const CheckoutTTL = 30*time.Minute + time.Minute

// webhookTolerance is how far a webhook signature's timestamp may be from now.
const webhookTolerance = 5 * time.Minute

// Service is the write side of billing. Build one with New and share it.
type Service struct {
	db     *store.DB
	cfg    *config.Config
	stripe *stripe.Client // nil when online payment is off
	now    func() time.Time
	log    *slog.Logger
	// payments applies one-time payments' webhook events (bookings); nil
	// until SetPaymentHandler.
	payments PaymentHandler
	// flights coalesces concurrent Stripe calls made for one member (see
	// coalesce).
	flights singleflight.Group
	// plans keeps the plans' prices read from Stripe (Plans).
	plans planCache
}

// Option changes how New builds a Service.
type Option func(*Service)

// WithClock replaces time.Now (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithLogger sets where Stripe failures that do not fail a call are logged.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithHTTPClient sets the HTTP client of the Stripe API calls.
func WithHTTPClient(c *http.Client) Option {
	return func(s *Service) {
		if s.stripe != nil {
			s.stripe = newStripeClient(s.cfg, c)
		}
	}
}

// New builds the billing service. Without STRIPE_SECRET_KEY (and
// STRIPE_PRICE_ID) online payment is off: Checkout and Portal refuse with
// billing_unavailable, while complimentary membership and the access rule
// work as ever.
func New(db *store.DB, cfg *config.Config, opts ...Option) *Service {
	s := &Service{db: db, cfg: cfg, now: time.Now, log: slog.Default()}
	if cfg.PaymentsEnabled() {
		s.stripe = newStripeClient(cfg, &http.Client{Timeout: 20 * time.Second})
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

func newStripeClient(cfg *config.Config, hc *http.Client) *stripe.Client {
	bc := &stripe.BackendConfig{
		HTTPClient:        hc,
		MaxNetworkRetries: stripe.Int64(2),
		// Failures come back as errors and are logged here, with context.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.StripeAPIBase != "" {
		bc.URL = stripe.String(cfg.StripeAPIBase)
	}
	return stripe.NewClient(cfg.StripeSecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))
}

// Enabled reports whether online payment is on.
func (s *Service) Enabled() bool { return s.stripe != nil }

// Capacity is the tribe's member cap (TRIBE_CAPACITY), the one source of it.
func (s *Service) Capacity() int { return s.cfg.Capacity }

// Status counts members with access and seats held by open checkouts
// against the cap, as Checkout counts them.
func (s *Service) Status(ctx context.Context) (TribeStatus, error) {
	st, err := status(ctx, s.db.Read, s.cfg.Capacity, s.now())
	st.PaymentsEnabled = s.Enabled()
	return st, err
}

// Subscription is the user's subscription now; nil for a free member.
func (s *Service) Subscription(ctx context.Context, userID string) (*Subscription, error) {
	return subscriptionAt(ctx, s.db.Read, userID, s.now())
}

func errOff() error {
	return errs.New(errs.BillingUnavailable,
		"Online payment is not set up yet. Join the wait list and we'll tell you when spots open up.")
}

func errStripe() error {
	return errs.New(errs.Unavailable, "The payment service did not answer. Please try again in a minute.")
}
