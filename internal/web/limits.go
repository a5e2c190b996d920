package web

import (
	"net/http"
	"strconv"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
)

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

func newAuthLimits() authLimits {
	return authLimits{
		signinIP:      ratelimit.New(30, 2*time.Second),
		signinAccount: ratelimit.NewSigninBackoff(5, time.Second, time.Minute),
		signupIP:      ratelimit.New(30, 20*time.Second),
		signupEmail:   ratelimit.New(5, 10*time.Minute),
		forgotIP:      ratelimit.New(10, 30*time.Second),
		forgotEmail:   ratelimit.New(3, 10*time.Minute),
		resetIP:       ratelimit.New(20, 30*time.Second),
		resendUser:    ratelimit.New(3, 10*time.Minute),
	}
}

// limited spends one request from each limiter under its key. When one
// refuses it sets Retry-After on w and returns the 429 error for the
// handler to return; nil means every limiter let the request through.
func limited(w http.ResponseWriter, checks ...limitCheck) error {
	for _, c := range checks {
		if ok, wait := c.l.Allow(c.key); !ok {
			return tooMany(w, wait, "Too many attempts. Please wait a moment and try again.")
		}
	}
	return nil
}

type limitCheck struct {
	l   *ratelimit.Limiter
	key string
}

// tooMany sets Retry-After on w and returns the 429 error with msg.
func tooMany(w http.ResponseWriter, wait time.Duration, msg string) error {
	w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfter(wait)))
	return errs.New(errs.RateLimited, msg)
}
