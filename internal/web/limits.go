package web

import (
	"net/http"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// shareLimit names a rate limit so that, on PostgreSQL, every instance of
// the site counts it in the database (ratelimit.Shared) and N instances
// allow what one does; on SQLite (one instance) the option does nothing.
// Each limit has a name of its own.
type shareLimit func(name string) ratelimit.Option

// sharedLimits is the shareLimit of db.
func sharedLimits(db *store.DB) shareLimit {
	return func(name string) ratelimit.Option { return ratelimit.Shared(db, name) }
}

// authLimits are the rate limits of the account endpoints. They are generous
// for people (and the browser tests, which all come from 127.0.0.1) and stop
// scripted guessing and mail flooding.
type authLimits struct {
	signinIP      *ratelimit.Limiter
	signinAccount *ratelimit.SigninBackoff
	signupIP      *ratelimit.Limiter
	signupEmail   *ratelimit.Limiter
	forgotIP      *ratelimit.Limiter
	forgotEmail   *ratelimit.Limiter
	resetIP       *ratelimit.Limiter
	resendUser    *ratelimit.Limiter
}

func newAuthLimits(share shareLimit) authLimits {
	return authLimits{
		signinIP:      ratelimit.New(30, 2*time.Second, share("signin-ip")),
		signinAccount: ratelimit.NewSigninBackoff(5, time.Second, time.Minute, share("signin")),
		signupIP:      ratelimit.New(30, 20*time.Second, share("signup-ip")),
		signupEmail:   ratelimit.New(5, 10*time.Minute, share("signup-email")),
		forgotIP:      ratelimit.New(10, 30*time.Second, share("forgot-ip")),
		forgotEmail:   ratelimit.New(3, 10*time.Minute, share("forgot-email")),
		resetIP:       ratelimit.New(20, 30*time.Second, share("reset-ip")),
		resendUser:    ratelimit.New(3, 10*time.Minute, share("resend-user")),
	}
}

// limited spends one request from each limiter under its key. When one
// refuses it returns the 429 error, with its Retry-After, for the handler
// to return; nil means every limiter let the request through.
func limited(checks ...limitCheck) error {
	for _, c := range checks {
		if ok, wait := c.l.Allow(c.key); !ok {
			return tooMany(wait, "Too many attempts. Please wait a moment and try again.")
		}
	}
	return nil
}

type limitCheck struct {
	l   *ratelimit.Limiter
	key string
}

// tooMany is the 429 error with msg, telling the client to wait wait
// (httpx.WriteError sends it as Retry-After).
func tooMany(wait time.Duration, msg string) error {
	return errs.New(errs.RateLimited, msg).After(wait)
}

// billingLimits bound, per member, the routes that call Stripe on every
// request, so one account cannot spend the site's Stripe quota that
// everyone's checkout depends on. They leave room for what the members area
// does by itself: a sync every few seconds while it waits for a checkout or
// after the portal closes (docs/billing.md).
type billingLimits struct {
	refresh *ratelimit.Limiter
	portal  *ratelimit.Limiter
}

func newBillingLimits(share shareLimit) billingLimits {
	return billingLimits{
		refresh: ratelimit.New(20, 3*time.Second, share("billing-refresh")),
		portal:  ratelimit.New(5, 20*time.Second, share("billing-portal")),
	}
}

// perMember answers 429 with Retry-After once the signed-in caller has spent
// l, and runs next otherwise.
func perMember(l *ratelimit.Limiter, next handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := limited(limitCheck{l, caller(r).UserID}); err != nil {
			return err
		}
		return next(w, r)
	}
}
