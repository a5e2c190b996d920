package web

import (
	"net/http"
	"strconv"
	"time"

	"tribe/internal/errs"
	"tribe/internal/httpx"
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

// limited spends one request from each limiter under its key and reports
// whether one refused; then it has answered 429 with Retry-After.
func limited(w http.ResponseWriter, r *http.Request, checks ...limitCheck) bool {
	for _, c := range checks {
		if ok, wait := c.l.Allow(c.key); !ok {
			tooMany(w, r, wait, "Too many attempts. Please wait a moment and try again.")
			return true
		}
	}
	return false
}

type limitCheck struct {
	l   *ratelimit.Limiter
	key string
}

func tooMany(w http.ResponseWriter, r *http.Request, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfter(wait)))
	httpx.WriteError(w, r, errs.New(errs.RateLimited, msg))
}
