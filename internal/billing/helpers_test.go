package billing

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/clock/clocktest"
	"tribe/internal/config"
	"tribe/internal/mail"
	"tribe/internal/store"
)

const (
	testPrice   = "price_tribe"
	testSecret  = "whsec_test_secret"
	testBaseURL = "https://tribe.test"
	testChatURL = "https://chat.test/invite/abc"
)

// env is one test's billing service with its database, clock and Stripe.
type env struct {
	t     *testing.T
	db    *store.DB
	svc   *Service
	cfg   *config.Config
	clock *clocktest.Clock
	ctx   context.Context
}

// newEnv builds a Service against the Stripe API at stripeURL ("" for
// online payment off). The clock starts at the real time, so webhook
// signatures made with time.Now() verify.
func newEnv(t *testing.T, db *store.DB, stripeURL string, capacity int) *env {
	t.Helper()
	cfg := &config.Config{BaseURL: testBaseURL, Capacity: capacity, GroupChatURL: testChatURL}
	if stripeURL != "" {
		cfg.StripeSecretKey, cfg.StripePriceID, cfg.StripeWebhookSecret, cfg.StripeAPIBase = "sk_test_123", testPrice, testSecret, stripeURL
	}
	c := clocktest.At(time.Now().UTC().Truncate(time.Second))
	svc := New(db, cfg, WithClock(c.Now), WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	return &env{t: t, db: db, svc: svc, cfg: cfg, clock: c, ctx: context.Background()}
}

// user creates an account with a confirmed address (and a profile) and
// returns its id.
func (e *env) user(email, name string) string {
	e.t.Helper()
	id := e.unconfirmedUser(email, name)
	if _, err := e.db.Write.ExecContext(e.ctx,
		`UPDATE users SET email_confirmed_at = $1 WHERE id = $2`, store.At(e.clock.Now()), id); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// unconfirmedUser creates an account whose address is not confirmed yet.
func (e *env) unconfirmedUser(email, name string) string {
	e.t.Helper()
	id := store.NewID()
	if _, err := e.db.Write.ExecContext(e.ctx,
		`INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'x')`,
		id, email, strings.ToLower(email)); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.Write.ExecContext(e.ctx,
		`INSERT INTO profiles (id, email, full_name) VALUES ($1, $2, $3)`, id, email, name); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// subscribe gives a user a subscriptions row with a status, as older code
// and other packages' tests do.
func (e *env) subscribe(userID, status string) {
	e.t.Helper()
	if _, err := e.db.Write.ExecContext(e.ctx,
		`INSERT INTO subscriptions (user_id, status) VALUES ($1, $2)`, userID, status); err != nil {
		e.t.Fatal(err)
	}
}

// deliver signs payload now and hands it to the webhook handler.
func (e *env) deliver(payload []byte) ([]string, error) {
	done, err := e.handle(payload)
	return done.Changed, err
}

// handle signs payload now and returns all the webhook handler reports.
func (e *env) handle(payload []byte) (Handled, error) {
	return e.svc.HandleWebhook(e.ctx, payload, billingtest.Sign(payload, testSecret, e.clock.Now()))
}

// mustDeliver delivers and fails the test on an error.
func (e *env) mustDeliver(payload []byte) []string {
	e.t.Helper()
	changed, err := e.deliver(payload)
	if err != nil {
		e.t.Fatalf("deliver: %v", err)
	}
	return changed
}

// sub is the user's subscription, failing the test on an error.
func (e *env) sub(userID string) *Subscription {
	e.t.Helper()
	s, err := e.svc.Subscription(e.ctx, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// mails returns the subjects of the mail queued for an address, oldest first.
func (e *env) mails(to string) []string {
	e.t.Helper()
	list, err := mail.List(e.ctx, e.db, 1000)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		if strings.EqualFold(list[i].To, to) {
			out = append(out, list[i].Subject)
		}
	}
	return out
}

// mailText is the text body of the newest mail to an address with subject
// starting with prefix.
func (e *env) mailText(to, prefix string) string {
	e.t.Helper()
	list, err := mail.List(e.ctx, e.db, 1000)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range list {
		if strings.EqualFold(m.To, to) && strings.HasPrefix(m.Subject, prefix) {
			return m.Text
		}
	}
	e.t.Fatalf("no mail %q to %s", prefix, to)
	return ""
}

// count is the tribe's member count.
func (e *env) count() int {
	e.t.Helper()
	st, err := e.svc.Status(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return st.ActiveMembers
}

// eventSeq makes unique event ids.
type eventSeq struct {
	mu sync.Mutex
	n  int
}

func (s *eventSeq) id() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return fmt.Sprintf("evt_%d_%d", time.Now().UnixNano(), s.n)
}

// subEvent is a customer.subscription.* event for s created at created.
func (s *eventSeq) subEvent(typ string, created int64, sub billingtest.Sub) []byte {
	return billingtest.Event(s.id(), "customer.subscription."+typ, created, sub.Object())
}
