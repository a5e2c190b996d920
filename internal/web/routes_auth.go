package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"tribe/internal/auth"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/ratelimit"
)

// authAPI serves the account, session and wait-list endpoints. Its limits
// live in this process.
type authAPI struct {
	*server
	svc    *auth.Service
	limits authLimits
}

// authService is the account rules, shared by every route (and its bound on
// concurrent password hashing).
func (s *server) authService() *auth.Service { return s.auth }

// registerAuth adds the account, session and wait-list endpoints.
func (s *server) registerAuth(mux *http.ServeMux) error {
	a := &authAPI{server: s, svc: s.authService(), limits: newAuthLimits()}
	s.route(mux, "GET /api/auth/session", anyone, a.session)
	s.route(mux, "POST /api/auth/signup", anyone, a.signup)
	s.route(mux, "POST /api/auth/signin", anyone, a.signin)
	s.route(mux, "POST /api/auth/signout", anyone, a.signout)
	s.route(mux, "POST /api/auth/password/forgot", anyone, a.forgot)
	s.route(mux, "POST /api/auth/password/reset", anyone, a.reset)
	s.route(mux, "POST /api/auth/confirm/resend", member, a.resend)
	s.route(mux, "GET /auth/confirm", anyone, a.confirm)
	return nil
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

// userJSON is the user object of docs/api.md.
type userJSON struct {
	ID             string            `json:"id"`
	Email          string            `json:"email"`
	EmailConfirmed bool              `json:"email_confirmed"`
	FullName       string            `json:"full_name"`
	AvatarURL      *string           `json:"avatar_url"`
	IsAdmin        bool              `json:"is_admin"`
	NameUnverified bool              `json:"name_unverified"`
	CreatedAt      string            `json:"created_at"`
	Subscription   *subscriptionJSON `json:"subscription"`
}

type subscriptionJSON struct {
	Status            string  `json:"status"`
	CurrentPeriodEnd  *string `json:"current_period_end"`
	CancelAtPeriodEnd bool    `json:"cancel_at_period_end"`
	Complimentary     bool    `json:"complimentary"`
	HasSubscriptionID bool    `json:"has_subscription_id"`
}

func jsonTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func toUserJSON(u *auth.User) *userJSON {
	if u == nil {
		return nil
	}
	out := &userJSON{
		ID: u.ID, Email: u.Email, EmailConfirmed: u.EmailConfirmed, FullName: u.FullName,
		AvatarURL: u.AvatarURL, IsAdmin: u.IsAdmin, NameUnverified: u.NameUnverified, CreatedAt: jsonTime(u.CreatedAt),
	}
	if sub := u.Subscription; sub != nil {
		out.Subscription = &subscriptionJSON{Status: sub.Status, CancelAtPeriodEnd: sub.CancelAtPeriodEnd,
			Complimentary: sub.Complimentary, HasSubscriptionID: sub.HasSubscriptionID}
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
		httpx.WriteJSON(w, http.StatusOK, userBody{})
		return
	}
	u, err := a.svc.User(r.Context(), p.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if limited(w, r, limitCheck{a.limits.signupIP, a.clientIP(r)}, limitCheck{a.limits.signupEmail, auth.NormalizeEmail(in.Email)}) {
		return
	}
	u, token, err := a.svc.SignUp(r.Context(), auth.SignUpInput{FullName: in.FullName, Email: in.Email, Password: in.Password}, a.clientOf(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusCreated, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signin(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if limited(w, r, limitCheck{a.limits.signinIP, a.clientIP(r)}) {
		return
	}
	// The back-off is keyed by the address as typed (normalised), account or
	// not, so it says nothing about whether the account exists, and by the
	// client, so failing from elsewhere cannot lock the owner out.
	account, client := auth.NormalizeEmail(in.Email), a.clientIP(r)
	if wait := a.limits.signinAccount.Wait(account, client); wait > 0 {
		tooMany(w, r, wait, fmt.Sprintf("Too many failed sign-ins for this address. Please wait %d seconds and try again.", ratelimit.RetryAfter(wait)))
		return
	}
	u, token, err := a.svc.SignIn(r.Context(), in.Email, in.Password, a.clientOf(r))
	if errors.Is(err, auth.ErrInvalidCredentials) {
		a.limits.signinAccount.Fail(account, client)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.limits.signinAccount.Succeed(account, client)
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) signout(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Scope string `json:"scope"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil && err != httpx.ErrEmptyBody {
		httpx.WriteError(w, r, err)
		return
	}
	if in.Scope != "" && in.Scope != "local" && in.Scope != "global" {
		httpx.WriteError(w, r, errs.Field("scope", `Scope must be "local" or "global".`))
		return
	}
	if p, ok := auth.PrincipalFrom(r.Context()); ok {
		if err := a.svc.SignOut(r.Context(), p, in.Scope == "global"); err != nil {
			httpx.WriteError(w, r, err)
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
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	email, err := auth.CheckEmail(in.Email)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if limited(w, r, limitCheck{a.limits.forgotIP, a.clientIP(r)}, limitCheck{a.limits.forgotEmail, auth.NormalizeEmail(email)}) {
		return
	}
	if err := a.svc.RequestPasswordReset(r.Context(), email); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusAccepted, messageBody{Message: forgotMessage})
}

func (a *authAPI) reset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if limited(w, r, limitCheck{a.limits.resetIP, a.clientIP(r)}) {
		return
	}
	u, token, err := a.svc.ResetPassword(r.Context(), in.Token, in.Password, a.clientOf(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.limits.signinAccount.Reset(auth.NormalizeEmail(u.Email))
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusOK, userBody{User: toUserJSON(u)})
}

func (a *authAPI) resend(w http.ResponseWriter, r *http.Request) {
	p, _ := auth.PrincipalFrom(r.Context())
	if limited(w, r, limitCheck{a.limits.resendUser, p.UserID}) {
		return
	}
	sent, err := a.svc.ResendConfirmation(r.Context(), p.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	msg := "Your e-mail address is already confirmed."
	if sent {
		msg = "We've sent a new confirmation link to " + p.Email + ". It works for 24 hours."
	}
	httpx.WriteJSON(w, http.StatusAccepted, messageBody{Message: msg})
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
	case errors.Is(err, auth.ErrConfirmNeedsSignIn):
		target = "/auth?confirm_error=signin"
	default:
		a.Logger.Error("confirm e-mail address", "err", err)
		target = "/auth?confirm_error=failed"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
}
