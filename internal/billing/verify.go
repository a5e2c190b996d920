package billing

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v86"
	"github.com/stripe/stripe-go/v86/webhook"

	"tribe/internal/errs"
)

func badEvent(ev stripe.Event, err error) error {
	return errs.Errorf(errs.Invalid, "Event %s (%s) carries an object that cannot be read: %v", ev.ID, ev.Type, err)
}

// verify checks the signature over the raw body and the timestamp against
// the service's clock, and decodes the event.
func (s *Service) verify(payload []byte, sigHeader string) (stripe.Event, error) {
	if s.cfg.StripeWebhookSecret == "" {
		return stripe.Event{}, errOff()
	}
	if strings.TrimSpace(sigHeader) == "" {
		return stripe.Event{}, errs.New(errs.Invalid, "The Stripe-Signature header is missing.")
	}
	ev, err := webhook.ConstructEventWithOptions(payload, sigHeader, s.cfg.StripeWebhookSecret,
		webhook.ConstructEventOptions{IgnoreTolerance: true, IgnoreAPIVersionMismatch: true})
	if err != nil {
		if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) || errors.Is(err, webhook.ErrNoValidSignature) {
			return stripe.Event{}, errs.New(errs.Invalid, "The Stripe signature does not match this body and the webhook secret.")
		}
		return stripe.Event{}, errs.Errorf(errs.Invalid, "The webhook body is not a Stripe event: %v", err)
	}
	ts, ok := signedAt(sigHeader)
	if !ok {
		return stripe.Event{}, errs.New(errs.Invalid, "The Stripe-Signature header must carry exactly one timestamp (t=).")
	}
	if d := s.now().Sub(ts); d > webhookTolerance || d < -webhookTolerance {
		return stripe.Event{}, errs.New(errs.Invalid, "The Stripe signature's timestamp is too far from now; the delivery is too old or replayed.")
	}
	if ev.ID == "" || ev.Type == "" || ev.Data == nil {
		return stripe.Event{}, errs.New(errs.Invalid, "The webhook body is not a Stripe event.")
	}
	if ev.APIVersion != "" && ev.APIVersion != stripe.APIVersion {
		s.log.Warn("billing: webhook event from another Stripe API version; set the endpoint's version to the pinned one",
			"event", ev.ID, "event_version", ev.APIVersion, "pinned", stripe.APIVersion)
	}
	return ev, nil
}

// signedAt is the timestamp the signature covers: the t= element of a
// Stripe-Signature header, read exactly as the signature check reads it
// (elements split at commas, then at "=", the key compared as is, so " t=" is
// not a timestamp). A header with no t= or more than one is refused:
// otherwise a "t=<now>," put in front of an old delivery's header could make
// the freshness check read another time than the one that was signed.
func signedAt(header string) (time.Time, bool) {
	var (
		at    time.Time
		found int
	)
	for _, part := range strings.Split(header, ",") {
		key, v, ok := strings.Cut(part, "=")
		if !ok || key != "t" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return time.Time{}, false
		}
		at, found = time.Unix(n, 0), found+1
	}
	return at, found == 1
}
