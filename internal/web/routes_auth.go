package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tribe/internal/auth"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
	"tribe/internal/waitlist"
)

// maxAuthBody bounds the JSON bodies of the account endpoints.
const maxAuthBody = 16 << 10

// authAPI serves the account, session and wait-list endpoints. Its limits
// live in this process.
type authAPI struct {
	*server
	svc    *auth.Service
	limits authLimits
}

// authLimits are the rate limits of the account endpoints. They are generous
// for people (and the browser tests, which all come from 127.0.0.1) and stop
// scripted guessing and mail flooding.
type authLimits struct {
	signinIP      *ratelimit.Limiter
	signinAccount *ratelimit.Backoff
	signupIP      *ratelimit.Limiter
	signupEmail   *ratelimit.Limiter
	forgotIP      *ratelimit.Limiter
	forgotEmail   *ratelimit.Limiter
	resetIP       *ratelimit.Limiter
	resendUser    *ratelimit.Limiter
	waitlistIP    *ratelimit.Limiter
	waitlistEmail *ratelimit.Limiter
}

func newAuthLimits() authLimits {
	return authLimits{
		signinIP:      ratelimit.New(30, 2*time.Second),
		signinAccount: ratelimit.NewBackoff(5, time.Second, time.Minute),
		signupIP:      ratelimit.New(30, 20*time.Second),
		signupEmail:   ratelimit.New(5, 10*time.Minute),
		forgotIP:      ratelimit.New(10, 30*time.Second),
		forgotEmail:   ratelimit.New(3, 10*time.Minute),
		resetIP:       ratelimit.New(20, 30*time.Second),
		resendUser:    ratelimit.New(3, 10*time.Minute),
		waitlistIP:    ratelimit.New(20, 30*time.Second),
		waitlistEmail: ratelimit.New(5, 10*time.Minute),
	}
}

// authService returns the account rules built from the site configuration,
// made once when the handler is built so every route shares one service
// (and its bound on concurrent password hashing).
func (s *server) authService() *auth.Service {
	s.authOnce.Do(func() {
		s.auth = auth.New(s.DB, auth.Config{
			BaseURL:     s.Config.BaseURL,
			AdminEmails: s.Config.AdminEmails,
			AdminDomain: s.Config.AdminDomain,
		})
	})
	return s.auth
}

// registerAuth adds the account, session and wait-list endpoints.
func (s *server) registerAuth(mux *http.ServeMux) error {
	a := &authAPI{server: s, svc: s.authService(), limits: newAuthLimits()}
	mux.Handle("GET /api/auth/session", allow(anyone, a.session))
	mux.Handle("POST /api/auth/signup", allow(anyone, a.signup))
	mux.Handle("POST /api/auth/signin", allow(anyone, a.signin))
	mux.Handle("POST /api/auth/signout", allow(anyone, a.signout))
	mux.Handle("POST /api/auth/password/forgot", allow(anyone, a.forgot))
	mux.Handle("POST /api/auth/password/reset", allow(anyone, a.reset))
	mux.Handle("POST /api/auth/confirm/resend", allow(member, a.resend))
	mux.Handle("GET /auth/confirm", allow(anyone, a.confirm))
	mux.Handle("POST /api/waitlist", allow(anyone, a.joinWaitlist))
	mux.Handle("GET /api/admin/waitlist", allow(admin, a.listWaitlist))
	mux.Handle("GET /api/admin/waitlist.csv", allow(admin, a.exportWaitlist))
	return nil
}

// sessionPaths are where a signed-in user matters; elsewhere (the web app's
// files and pages) the session cookie is not even looked at.
var sessionPaths = []string{"/api/", "/auth/confirm", "/dev/", "/calendar/", "/avatars/"}

// authenticate loads the signed-in user from the session cookie into the
// request context (auth.WithPrincipal) and renews the session.
func (s *server) authenticate(next http.Handler) http.Handler {
	svc := s.authService()
	secure := strings.HasPrefix(s.Config.BaseURL, "https://")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hasSessionPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		c, err := r.Cookie(auth.CookieName)
		if err != nil || c.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		p, renewed, err := svc.Authenticate(r.Context(), c.Value)
		if err != nil {
			// The request goes on as signed out; endpoints that need a user
			// answer 401 and the cookie stays for the next request.
			s.Logger.Error("authenticate session", "err", err)
			next.ServeHTTP(w, r)
			return
		}
		if p == nil {
			if err := svc.ForgetSession(r.Context(), c.Value); err != nil {
				s.Logger.Warn("forget expired session", "err", err)
			}
			clearSessionCookie(w, secure)
			next.ServeHTTP(w, r)
			return
		}
		if renewed {
			setSessionCookie(w, c.Value, secure)
		}
		next.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
	})
}

func hasSessionPath(path string) bool {
	for _, p := range sessionPaths {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func setSessionCookie(w http.ResponseWriter, token string, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.CookieName, Value: token, Path: "/",
		MaxAge: int(auth.SessionTTL / time.Second), HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	})
}

func clearSessionCookie(w http.ResponseWriter, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	})
}

func (a *authAPI) secure() bool { return strings.HasPrefix(a.Config.BaseURL, "https://") }

// clientOf describes the caller for the session it starts (user agent and address).
func (a *authAPI) clientOf(r *http.Request) auth.Client {
	return auth.Client{UserAgent: r.UserAgent(), IP: a.clientIP(r)}
}

// clientIP is the caller's address as the rate limits see it (see clientIP).
func (a *authAPI) clientIP(r *http.Request) string {
	return clientIP(r, a.Config.TrustedProxies)
}

// readJSON decodes a bounded JSON body into dst, answering 400 itself when
// it cannot. Unknown fields are ignored. An empty body leaves dst as is
// when emptyOK.
func (a *authAPI) readJSON(w http.ResponseWriter, r *http.Request, dst any, emptyOK bool) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAuthBody))
	err := dec.Decode(dst)
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "invalid", "The request body is too large.")
	case errors.Is(err, io.EOF) && emptyOK:
		return true
	default:
		writeError(w, http.StatusBadRequest, "invalid", "The request body must be a JSON object.")
	}
	return false
}

// limited spends one request from each limiter under its key and, when one
// refuses, answers 429 with Retry-After and reports false.
func limited(w http.ResponseWriter, checks ...limitCheck) bool {
	for _, c := range checks {
		if ok, wait := c.l.Allow(c.key); !ok {
			tooMany(w, wait, "Too many attempts. Please wait a moment and try again.")
			return true
		}
	}
	return false
}

type limitCheck struct {
	l   *ratelimit.Limiter
	key string
}

func tooMany(w http.ResponseWriter, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfter(wait)))
	writeError(w, http.StatusTooManyRequests, "rate_limited", msg)
}

// fail answers a domain error: bad input and known conditions get their own
// status; anything else is logged and answers 500.
func (a *authAPI) fail(w http.ResponseWriter, r *http.Request, err error) {
	var v *auth.ValidationError
	switch {
	case errors.As(err, &v):
		writeError(w, http.StatusBadRequest, "invalid", v.Message)
	case errors.Is(err, auth.ErrEmailTaken):
		writeError(w, http.StatusConflict, "email_taken", "An account with this e-mail already exists. Sign in or reset your password.")
	case errors.Is(err, auth.ErrInvalidCredentials):
		writeError(w, http.StatusUnauthorized, "invalid_credentials", "Invalid login credentials")
	case errors.Is(err, auth.ErrInvalidToken):
		writeError(w, http.StatusBadRequest, "invalid_token", "This password reset link is invalid or has expired. Request a new one.")
	case errors.Is(err, context.Canceled):
		// The client went away; nothing to answer.
	default:
		a.Logger.Error("account request failed", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
	}
}

// userJSON is the user object of docs/api.md.
type userJSON struct {
	ID             string            `json:"id"`
	Email          string            `json:"email"`
	EmailConfirmed bool              `json:"email_confirmed"`
	FullName       string            `json:"full_name"`
	AvatarURL      *string           `json:"avatar_url"`
	IsAdmin        bool              `json:"is_admin"`
	CreatedAt      string            `json:"created_at"`
	Subscription   *subscriptionJSON `json:"subscription"`
}

type subscriptionJSON struct {
	Status            string  `json:"status"`
	CurrentPeriodEnd  *string `json:"current_period_end"`
	CancelAtPeriodEnd bool    `json:"cancel_at_period_end"`
}

func jsonTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func toUserJSON(u *auth.User) *userJSON {
	if u == nil {
		return nil
	}
	out := &userJSON{
		ID: u.ID, Email: u.Email, EmailConfirmed: u.EmailConfirmed, FullName: u.FullName,
		AvatarURL: u.AvatarURL, IsAdmin: u.IsAdmin, CreatedAt: jsonTime(u.CreatedAt),
	}
	if sub := u.Subscription; sub != nil {
		out.Subscription = &subscriptionJSON{Status: sub.Status, CancelAtPeriodEnd: sub.CancelAtPeriodEnd}
		if sub.CurrentPeriodEnd != nil {
			s := jsonTime(*sub.CurrentPeriodEnd)
			out.Subscription.CurrentPeriodEnd = &s
		}
	}
	return out
}

type userBody struct {
	User *userJSON `json:"user"`
}

type messageBody struct {
	Message string `json:"message"`
}

func (a *authAPI) session(w http.ResponseWriter, r *http.Request) {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		writeJSON(w, http.StatusOK, userBody{})
		return
	}
	u, err := a.svc.User(r.Context(), p.UserID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if !a.readJSON(w, r, &in, false) {
		return
	}
	if limited(w, limitCheck{a.limits.signupIP, a.clientIP(r)}, limitCheck{a.limits.signupEmail, auth.NormalizeEmail(in.Email)}) {
		return
	}
	u, token, err := a.svc.SignUp(r.Context(), auth.SignUpInput{FullName: in.FullName, Email: in.Email, Password: in.Password}, a.clientOf(r))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	setSessionCookie(w, token, a.secure())
	writeJSON(w, http.StatusCreated, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signin(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if !a.readJSON(w, r, &in, false) {
		return
	}
	if limited(w, limitCheck{a.limits.signinIP, a.clientIP(r)}) {
		return
	}
	// The back-off is keyed by the address as typed (normalised), account or
	// not, so it says nothing about whether the account exists.
	account := auth.NormalizeEmail(in.Email)
	if wait := a.limits.signinAccount.Wait(account); wait > 0 {
		tooMany(w, wait, fmt.Sprintf("Too many failed sign-ins for this address. Please wait %d seconds and try again.", ratelimit.RetryAfter(wait)))
		return
	}
	u, token, err := a.svc.SignIn(r.Context(), in.Email, in.Password, a.clientOf(r))
	if errors.Is(err, auth.ErrInvalidCredentials) {
		a.limits.signinAccount.Fail(account)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	a.limits.signinAccount.Reset(account)
	setSessionCookie(w, token, a.secure())
	writeJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signout(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Scope string `json:"scope"`
	}
	if !a.readJSON(w, r, &in, true) {
		return
	}
	if in.Scope != "" && in.Scope != "local" && in.Scope != "global" {
		writeError(w, http.StatusBadRequest, "invalid", `Scope must be "local" or "global".`)
		return
	}
	if p, ok := auth.PrincipalFrom(r.Context()); ok {
		if err := a.svc.SignOut(r.Context(), p, in.Scope == "global"); err != nil {
			a.fail(w, r, err)
			return
		}
	}
	clearSessionCookie(w, a.secure())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// forgotMessage is the one answer to a reset request, account or not.
const forgotMessage = "If an account exists for that address, we've sent a password reset link. Check your email."

func (a *authAPI) forgot(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
		// RedirectTo is accepted for the spec's payload but not used: the
		// link always opens /auth?reset=true, so mail never points elsewhere.
		RedirectTo string `json:"redirect_to"`
	}
	if !a.readJSON(w, r, &in, false) {
		return
	}
	email, err := auth.CheckEmail(in.Email)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if limited(w, limitCheck{a.limits.forgotIP, a.clientIP(r)}, limitCheck{a.limits.forgotEmail, auth.NormalizeEmail(email)}) {
		return
	}
	if err := a.svc.RequestPasswordReset(r.Context(), email); err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, messageBody{Message: forgotMessage})
}

func (a *authAPI) reset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if !a.readJSON(w, r, &in, false) {
		return
	}
	if limited(w, limitCheck{a.limits.resetIP, a.clientIP(r)}) {
		return
	}
	u, token, err := a.svc.ResetPassword(r.Context(), in.Token, in.Password, a.clientOf(r))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	a.limits.signinAccount.Reset(auth.NormalizeEmail(u.Email))
	setSessionCookie(w, token, a.secure())
	writeJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) resend(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.PrincipalFrom(r.Context())
	if limited(w, limitCheck{a.limits.resendUser, p.UserID}) {
		return
	}
	sent, err := a.svc.ResendConfirmation(r.Context(), p.UserID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	msg := "Your e-mail address is already confirmed."
	if sent {
		msg = "We've sent a new confirmation link to " + p.Email + ". It works for 24 hours."
	}
	writeJSON(w, http.StatusAccepted, messageBody{Message: msg})
}

func (a *authAPI) confirm(w http.ResponseWriter, r *http.Request) {
	err := a.svc.ConfirmEmail(r.Context(), r.URL.Query().Get("token"))
	target := "/members?confirmed=true"
	switch {
	case err == nil:
	case errors.Is(err, auth.ErrTokenUsed):
		target = "/auth?confirm_error=used"
	case errors.Is(err, auth.ErrTokenExpired):
		target = "/auth?confirm_error=expired"
	case errors.Is(err, auth.ErrInvalidToken):
		target = "/auth?confirm_error=invalid"
	default:
		a.Logger.Error("confirm e-mail address", "err", err)
		target = "/auth?confirm_error=failed"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
}

func (a *authAPI) joinWaitlist(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
	}
	if !a.readJSON(w, r, &in, false) {
		return
	}
	if limited(w, limitCheck{a.limits.waitlistIP, a.clientIP(r)}, limitCheck{a.limits.waitlistEmail, auth.NormalizeEmail(in.Email)}) {
		return
	}
	added, err := waitlist.Join(r.Context(), a.DB, in.FullName, in.Email, a.Config.BaseURL)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	type joined struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}
	if !added {
		writeJSON(w, http.StatusOK, joined{"already", "You're already on the wait list. We'll e-mail you as soon as spots open up."})
		return
	}
	writeJSON(w, http.StatusCreated, joined{"added", "You're on the list! We've sent you a confirmation e-mail and will notify you when spots open up."})
}

func (a *authAPI) listWaitlist(w http.ResponseWriter, r *http.Request) {
	entries, err := waitlist.List(r.Context(), a.DB)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	type entryJSON struct {
		ID        string `json:"id"`
		FullName  string `json:"full_name"`
		Email     string `json:"email"`
		CreatedAt string `json:"created_at"`
	}
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, entryJSON{e.ID, e.FullName, e.Email, jsonTime(e.CreatedAt)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"entries": out})
}

func (a *authAPI) exportWaitlist(w http.ResponseWriter, r *http.Request) {
	entries, err := waitlist.List(r.Context(), a.DB)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="waitlist-%s.csv"`, store.Now().Format("2006-01-02")))
	h.Set("Cache-Control", "no-store")
	if err := waitlist.WriteCSV(w, entries); err != nil {
		a.Logger.Error("export wait list", "err", err)
	}
}
